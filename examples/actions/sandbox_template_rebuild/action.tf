# Terraform >= 1.14. Rebuild a template now, bypassing build caches, and watch its build log as it runs:
#   terraform apply -invoke=action.sandbox_template_rebuild.py
action "sandbox_template_rebuild" "py" {
  config {
    backend     = sandbox_template.py.backend
    template_id = sandbox_template.py.template_id
    image       = sandbox_template.py.image
    packages    = sandbox_template.py.packages
    timeout     = "45m"
  }
}

resource "sandbox_template" "py" {
  backend     = "e2b"
  template_id = "data-science"
  image       = "python:3.12-slim"
  packages    = ["pandas==2.2.3", "numpy"]
}

# Or from an action_trigger: rebuild from scratch whenever the base image's digest changes under the
# same tag, which no build input of the resource shows.
resource "terraform_data" "base_image_digest" {
  input = var.base_image_digest

  lifecycle {
    action_trigger {
      events  = [after_update]
      actions = [action.sandbox_template_rebuild.py]
    }
  }
}

variable "base_image_digest" {
  type = string
}
