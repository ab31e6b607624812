# The CI workspace: every commit builds a candidate. Its builds never take `default`, so whatever
# starts sandboxes from the plain name "agent" keeps the build it had.
terraform {
  required_providers {
    sandbox = { source = "sandboxtf/sandbox" }
  }
}

variable "git_sha" {
  type = string
}

resource "sandbox_template" "agent" {
  backend     = "e2b"
  template_id = "agent"
  image       = "ghcr.io/acme/agent:${var.git_sha}" # FROM e2bdev/code-interpreter
  packages    = ["pandas==2.2.3"]
  tags        = ["git-${var.git_sha}"]
  candidate   = true
}

# The tests of this candidate start exactly its build: { provider = "e2b", value = "agent:<build_id>" }.
output "candidate_ref" {
  value = sandbox_template.agent.build_ref
}

# What the promotion workspace is given once the tests pass.
output "build_id" {
  value = sandbox_template.agent.build_id
}
