# One workspace that builds a candidate, checks it, and promotes only what passed: prod's target is
# the check's build_id, which exists only once the check passed.
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
  packages    = ["pandas==2.2.3", "polars==1.9.0"]
  tags        = ["git-${var.git_sha}"]
  candidate   = true
}

# Starts a sandbox from exactly the candidate's build, as consumers will, and runs the commands.
resource "sandbox_template_check" "smoke" {
  template_ref = sandbox_template.agent.build_ref
  sandbox_env  = sandbox_template.agent.sandbox_env
  commands = [
    { run = "python -c 'import pandas, polars'" },
    { run = "python -c 'import sys; print(sys.version)'", expect_output = "^3\\.12\\." },
  ]
  timeout = "5m"
}

resource "sandbox_template_tag" "prod" {
  backend     = "e2b"
  template_id = sandbox_template.agent.template_id
  tag         = "prod"
  target      = sandbox_template_check.smoke.build_id
}
