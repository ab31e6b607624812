# The demo `make demo` applies against the bundled E2B emulator (scripts/demo.sh sets E2B_API_URL
# and E2B_API_KEY for it, and a dev override for the locally built provider).
terraform {
  required_providers {
    sandbox = {
      source = "sandboxtf/sandbox"
    }
  }
}

provider "sandbox" {}

resource "sandbox_template" "py" {
  backend     = "e2b"
  template_id = "data-science"
  image       = "python:3.12-slim"
  packages    = ["pandas==2.2.3", "numpy"]

  registry_auth = {
    basic = {
      username = "ci-bot"
      password = var.registry_password
    }
  }
}

variable "registry_password" {
  type      = string
  sensitive = true
  default   = "demo-registry-password"
}

output "ref" {
  value = sandbox_template.py.template_ref
}

output "status" {
  value = sandbox_template.py.status
}
