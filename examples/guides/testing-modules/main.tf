# A module under test: it builds its agent's template and hands the worker that starts sandboxes
# what it needs, from template_ref (the reference is known only once the template is usable).
terraform {
  required_providers {
    sandbox = { source = "sandboxtf/sandbox" }
  }
}

variable "image" {
  description = "The agent's image, pinned: a tag that moves would rebuild the template under the workers' feet."
  type        = string

  validation {
    condition     = !endswith(var.image, ":latest")
    error_message = "Pin image to a version tag or a digest, not :latest."
  }
}

variable "packages" {
  description = "pip packages installed on top of image."
  type        = list(string)
  default     = []
}

resource "sandbox_template" "agent" {
  backend     = "e2b"
  template_id = "support-agent"
  image       = var.image
  packages    = var.packages
  start_cmd   = "" # the image has no code interpreter to start

  lifecycle {
    postcondition {
      condition     = self.template_ref != null
      error_message = "The template was not built: no template_ref to start sandboxes from."
    }
  }
}

output "worker_env" {
  description = "What the worker's E2B SDK reads: Sandbox.create(template=os.environ[\"E2B_TEMPLATE\"])."
  value = {
    E2B_TEMPLATE = sandbox_template.agent.template_ref.value
  }
}
