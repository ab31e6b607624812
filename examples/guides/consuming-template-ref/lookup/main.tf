# A pipeline that did not build the template looks it up instead; the plan fails while the
# template does not exist or is not usable yet.
terraform {
  required_providers {
    sandbox = { source = "sandboxtf/sandbox" }
  }
}

data "sandbox_template" "ds" {
  backend     = "e2b"
  template_id = "data-science"
}

output "template_ref" {
  value = data.sandbox_template.ds.template_ref
}
