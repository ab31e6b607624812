# env: environment variables for the steps after it and for the template's sandboxes. E2B keeps
# them in the template; on OpenSandbox a snapshot cannot, so sandbox_env hands them to consumers.
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
