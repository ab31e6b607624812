# user: the user the steps after it, and the template's sandboxes, run as; created when missing.
resource "sandbox_template" "user" {
  backend     = "opensandbox"
  template_id = "analyst"
  image       = "opensandbox/code-interpreter:v1.1.0"
  steps = [
    { user = "analyst" },
    { workdir = "/home/analyst/notebooks" }, # owned by analyst
  ]
}

output "run_as" {
  value = sandbox_template.user.sandbox_user # "analyst"
}
