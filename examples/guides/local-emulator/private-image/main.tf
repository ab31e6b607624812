# A template from your own private image, applied against the emulator. The emulator cannot know
# what the image holds, so it is declared when the emulator starts (image.json, see the guide);
# undeclared, it would be taken for Debian with Python 3.12, where `node` is not found.
variable "registry_password" {
  type      = string
  sensitive = true
}

locals {
  image = "ghcr.io/acme/app:1"
  steps = [
    { run = { command = "node --version && npm --version" } },
    { user = "app" }, # a user the image has: later steps run as app
  ]
  registry_auth = {
    basic = {
      username = "ci"
      password = var.registry_password
    }
  }
}

resource "sandbox_template" "e2b" {
  backend       = "e2b"
  template_id   = "acme-app"
  image         = local.image
  start_cmd     = "" # nothing to start: sandboxes run their own commands
  steps         = local.steps
  registry_auth = local.registry_auth
}

resource "sandbox_template" "opensandbox" {
  backend       = "opensandbox"
  template_id   = "acme-app"
  image         = local.image
  start_cmd     = ""
  steps         = local.steps
  registry_auth = local.registry_auth
}
