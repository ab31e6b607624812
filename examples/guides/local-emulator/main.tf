# The provider block stays empty: every setting comes from the environment the emulator printed,
# so the same configuration runs against the real backends with their real settings.
terraform {
  required_providers {
    sandbox = { source = "sandboxtf/sandbox" }
  }
}

provider "sandbox" {}

resource "sandbox_template" "e2b" {
  backend     = "e2b"
  template_id = "ci-data-science"
  image       = "e2bdev/code-interpreter:latest"
  packages    = ["pandas==2.2.3"]
}

resource "sandbox_template" "opensandbox" {
  backend     = "opensandbox"
  template_id = "ci-data-science"
  image       = "opensandbox/code-interpreter:v1.1.0"
  packages    = ["pandas==2.2.3"]
}

output "refs" {
  value = [sandbox_template.e2b.template_ref, sandbox_template.opensandbox.template_ref]
}
