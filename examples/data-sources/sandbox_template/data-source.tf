# Look up a template another pipeline built, and hand its reference on.
data "sandbox_template" "shared" {
  backend     = "e2b"
  template_id = "data-science"
}

output "shared_ref" {
  value = data.sandbox_template.shared.template_ref
}
