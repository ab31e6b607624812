# A candidate build, reached only by its own reference until a tag points at it.
resource "sandbox_template" "agent" {
  backend     = "e2b"
  template_id = "agent"
  image       = "ghcr.io/acme/agent:1.5" # FROM e2bdev/code-interpreter
  tags        = ["v1.5"]
  candidate   = true
}

# Production starts "agent:prod". Promotion: point target at another build id; rollback: revert it.
resource "sandbox_template_tag" "prod" {
  backend     = "e2b"
  template_id = sandbox_template.agent.template_id
  tag         = "prod"
  target      = "6a1d0e54-93b7-4f0c-b2a8-5e3c7d9f1b24" # a build id, or a tag such as "v1.4"
}

# Staging follows a release tag: "agent:staging" starts whatever build "v1.5" names when applied.
resource "sandbox_template_tag" "staging" {
  backend     = "e2b"
  template_id = sandbox_template.agent.template_id
  tag         = "staging"
  target      = "v1.5"
}
