# `terraform query` (Terraform >= 1.14): the tags of template "agent", each with the build it points at.
list "sandbox_template_tag" "agent" {
  provider         = sandbox
  include_resource = true
  config {
    backend     = "e2b"
    template_id = "agent"
  }
}
