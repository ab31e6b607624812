terraform {
  required_providers {
    sandbox = { source = "sandboxtf/sandbox" }
  }
}

# CI pushes ghcr.io/acme/agent:main on every merge. Each plan resolves the tag with the same login
# the build uses; when it points at a new digest, the plan rebuilds the template from that digest.
resource "sandbox_template" "agent" {
  backend            = "e2b"
  template_id        = "agent"
  image              = "ghcr.io/acme/agent:main" # FROM e2bdev/code-interpreter
  image_digest_check = "warn"                    # "strict" fails the plan when the registry is unreachable

  registry_auth = {
    basic = {
      username = "ci-bot"
      password = var.ghcr_token
    }
  }
}

# A release pinned by digest never moves: nothing is resolved, nothing rebuilt.
resource "sandbox_template" "agent_release" {
  backend     = "e2b"
  template_id = "agent-release"
  image       = "ghcr.io/acme/agent@sha256:3f0c2e1d4b5a69788796a5b4c3d2e1f00112233445566778899aabbccddeeff0"
}

variable "ghcr_token" {
  type      = string
  sensitive = true
}

output "built_from" {
  value = sandbox_template.agent.image_digest
}
