# env: environment variables for the steps after it. No backend gives them to the template's
# sandboxes by itself (E2B keeps them for the build only; a snapshot keeps files only), so
# sandbox_env hands them to whoever starts sandboxes: E2B's Sandbox.create envs, OpenSandbox's env.
resource "sandbox_template" "env" {
  backend     = "opensandbox"
  template_id = "headless-plots"
  image       = "opensandbox/code-interpreter:v1.1.0"
  steps = [
    { env = { MPLBACKEND = "Agg", HF_HOME = "/opt/hf-cache" } },
  ]
}

output "env" {
  value     = sandbox_template.env.sandbox_env # { HF_HOME = "/opt/hf-cache", MPLBACKEND = "Agg" }, known at plan
  sensitive = true                             # sandbox_env is sensitive, whatever its values: env steps hold API keys
}
