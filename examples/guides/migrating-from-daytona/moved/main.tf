# After, on Terraform >= 1.8 or OpenTofu: the daytona_snapshot becomes a sandbox_template in one
# reviewed plan. The state still names jwmoss/daytona, so `terraform init` installs it for this
# plan; the move itself is this provider's.
terraform {
  required_providers {
    sandbox = { source = "sandboxtf/sandbox" }
  }
}

# DAYTONA_API_KEY, DAYTONA_API_URL and DAYTONA_ORGANIZATION_ID configure it, as they configured
# jwmoss/daytona; region_id is the provider-wide daytona.target (DAYTONA_TARGET) here.
provider "sandbox" {}

moved {
  from = daytona_snapshot.agent
  to   = sandbox_template.agent
}

resource "sandbox_template" "agent" {
  backend     = "daytona"
  template_id = "agent"                         # name, up to a ":"
  image       = "ghcr.io/acme/agent:2.0"        # image_name
  start_cmd   = "/usr/local/bin/start-agent.sh" # entrypoint, as the /bin/sh -c command
  cpu_count   = 2                               # cpu
  memory_mb   = 4096                            # memory, in MB here (GB there)
  disk_gb     = 10                              # disk
}

output "template_ref" {
  # name, as { provider = "daytona", value = "agent:inputs-<fingerprint>" } once the first apply
  # has built the template's own snapshot; "agent" until then
  value = sandbox_template.agent.template_ref
}
