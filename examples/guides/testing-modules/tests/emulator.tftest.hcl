# The same module built for real against the bundled emulator (or an E2B account): the provider
# reads E2B_API_URL and E2B_API_KEY, as the local-emulator guide prints them. The run builds the
# template, checks it, and `terraform test` deletes it afterwards.
variables {
  image    = "python:3.12-slim"
  packages = ["requests==2.32.3"]
}

run "builds_on_the_emulator" {
  assert {
    condition     = sandbox_template.agent.status == "SUCCESS"
    error_message = "The template did not build: ${sandbox_template.agent.detail}"
  }

  assert {
    condition     = output.worker_env.E2B_TEMPLATE == "support-agent"
    error_message = "The worker must start sandboxes from the template's reference."
  }
}
