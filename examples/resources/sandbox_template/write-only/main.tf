# Terraform/OpenTofu >= 1.11: the secret is write-only. It is sent for the build and never stored
# in state; bump secret_access_key_wo_version when you rotate it. The variable is ephemeral, so
# the secret is not stored in a saved plan (`plan -out`) either: give it again at apply.
# The image is built FROM e2bdev/code-interpreter, so the default start command exists in it.
resource "sandbox_template" "py" {
  backend     = "e2b"
  template_id = "data-science"
  image       = "123456789012.dkr.ecr.us-east-1.amazonaws.com/ds:1.4"

  registry_auth = {
    aws = {
      access_key_id                = var.key_id
      secret_access_key_wo         = var.secret
      secret_access_key_wo_version = 1
      region                       = "us-east-1"
    }
  }

  packages = ["pandas==2.2.3", "numpy"]
}

variable "key_id" {
  type = string
}

variable "secret" {
  type      = string
  sensitive = true
  ephemeral = true
}
