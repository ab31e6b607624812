# E2B: check exactly the candidate's build, then promote it. prod moves only after a pass.
resource "sandbox_template" "agent" {
  backend     = "e2b"
  template_id = "agent"
  image       = "ghcr.io/acme/agent:1.5" # FROM e2bdev/code-interpreter
  packages    = ["pandas==2.2.3", "polars==1.9.0"]
  candidate   = true
}

resource "sandbox_template_check" "smoke" {
  template_ref = sandbox_template.agent.build_ref # exactly one build: "agent:<build_id>"
  sandbox_env  = sandbox_template.agent.sandbox_env
  commands = [
    { run = "python -c 'import pandas, polars'" },
    { run = "curl -fsS localhost:49999/health", expect_output = "ok" },
  ]
  timeout = "5m"
}

resource "sandbox_template_tag" "prod" {
  backend     = "e2b"
  template_id = sandbox_template.agent.template_id
  tag         = "prod"
  target      = sandbox_template_check.smoke.build_id # moves only after a pass
}

# OpenSandbox: a snapshot keeps files only, so the check passes what consumers pass.
resource "sandbox_template" "analysis" {
  backend     = "opensandbox"
  template_id = "analysis"
  image       = "python:3.12"
  start_cmd   = "sleep infinity"
  steps = [
    { pip = { packages = ["pandas"] } },
    { user = "analyst" },
    { workdir = "/home/analyst/work" },
  ]
}

resource "sandbox_template_check" "analysis" {
  template_ref       = sandbox_template.analysis.template_ref # the newest Ready snapshot of the name
  sandbox_entrypoint = sandbox_template.analysis.sandbox_entrypoint
  sandbox_env        = sandbox_template.analysis.sandbox_env
  sandbox_workdir    = sandbox_template.analysis.sandbox_workdir
  sandbox_user       = sandbox_template.analysis.sandbox_user
  commands = [
    { run = "python3 -c 'import pandas'" },
    { run = "whoami", expect_output = "^analyst$" },
    { run = "test -e /root/.cache", expect_exit_code = 1 },
  ]

  lifecycle {
    replace_triggered_by = [sandbox_template.analysis.build_id] # check each new snapshot
  }
}

# Bedrock AgentCore: an existing code interpreter builds nothing; a check proves it runs code, in a
# code interpreter session it stops afterwards.
resource "sandbox_template" "interpreter" {
  backend     = "bedrock"
  template_id = "analysis-a1b2c3d4e5"
}

resource "sandbox_template_check" "interpreter" {
  template_ref = sandbox_template.interpreter.template_ref
  commands     = [{ run = "python3 -c 'import pandas, polars'" }]
}
