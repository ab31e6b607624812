# `terraform test` (>= 1.7) or `tofu test` (>= 1.8) with no account and no network: the provider is
# mocked (its schema is the real one, so typos in attribute names still fail), and nothing is built.
mock_provider "sandbox" {}

# A mocked provider invents computed values; these are the ones the module reads.
override_resource {
  target = sandbox_template.agent
  values = {
    template_ref = { provider = "e2b", value = "support-agent" }
    status       = "SUCCESS"
  }
}

variables {
  image = "ghcr.io/acme/support-agent:1.4.0"
}

run "worker_starts_from_the_template" {
  command = apply # against the mock: nothing is built

  assert {
    condition     = output.worker_env.E2B_TEMPLATE == "support-agent"
    error_message = "The worker must start sandboxes from the template's reference."
  }
}

run "refuses_a_floating_tag" {
  command = plan

  variables {
    image = "ghcr.io/acme/support-agent:latest"
  }

  expect_failures = [var.image]
}
