# After, on Terraform >= 1.8 or OpenTofu: the e2b_template becomes a sandbox_template in one
# reviewed plan, with no build and no window where neither provider owns the template. The state
# still names 536tech/e2b, so `terraform init` installs it for this plan; the move itself is this provider's.
terraform {
  required_providers {
    sandbox = { source = "sandboxtf/sandbox" }
  }
}

# E2B_API_KEY and E2B_API_URL configure it, as they configured 536tech/e2b.
provider "sandbox" {}

moved {
  from = e2b_template.ds
  to   = sandbox_template.ds
}

resource "sandbox_template" "ds" {
  backend     = "e2b"
  template_id = "data-science"                  # name
  image       = "ghcr.io/acme/agent:2.0"        # from_image
  start_cmd   = "/usr/local/bin/start-agent.sh" # start_cmd (unset there: none, so "" here)
  ready_cmd   = "test -S /run/agent.sock"       # ready_cmd
  cpu_count   = 2                               # cpu_count
  memory_mb   = 1024                            # memory_mb
}

output "template_ref" {
  value = sandbox_template.ds.template_ref # aliases[0], as { provider = "e2b", value = "data-science" }
}
