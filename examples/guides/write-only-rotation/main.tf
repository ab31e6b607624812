# Terraform >= 1.11 / OpenTofu >= 1.11. The password is write-only (never in state) and comes from an
# ephemeral variable (never in a saved plan). Rotate it: give the new password and bump the version.
#
#   terraform apply -var "registry_password=$NEW" -var registry_password_version=2
resource "sandbox_template" "py" {
  backend     = "opensandbox"
  template_id = "data-science"
  image       = "registry.acme.internal/ds:1.4" # FROM opensandbox/code-interpreter:v1.1.0

  registry_auth = {
    basic = {
      username            = "ci-bot"
      password_wo         = var.registry_password
      password_wo_version = var.registry_password_version
    }
  }
}

variable "registry_password" {
  type      = string
  sensitive = true
  ephemeral = true
}

variable "registry_password_version" {
  description = "Bump when registry_password changes."
  type        = number
  default     = 1
}
