# After: the same template, adopted without a rebuild. Run `terraform state rm e2b_template.ds`
# (or, on Terraform/OpenTofu >= 1.7, a `removed` block with destroy = false) so the old provider
# does not delete it, then plan and apply.
terraform {
  required_providers {
    sandbox = { source = "sandboxtf/sandbox" }
  }
}

# E2B_API_KEY and E2B_API_URL configure it, as they configured 536tech/e2b.
provider "sandbox" {}

import {
  to = sandbox_template.ds
  id = "e2b/data-science" # the alias (e2b_template.name), not e2b_template.id
}

resource "sandbox_template" "ds" {
  backend     = "e2b"
  template_id = "data-science"                  # name
  image       = "ghcr.io/acme/agent:2.0"        # from_image
  start_cmd   = "/usr/local/bin/start-agent.sh" # start_cmd (unset: the code-interpreter default, "": none)
  ready_cmd   = "test -S /run/agent.sock"       # ready_cmd
  cpu_count   = 2                               # cpu_count
  memory_mb   = 1024                            # memory_mb
  # force = true has no counterpart to copy: force_rebuild applies to the first build only.
}

output "template_ref" {
  value = sandbox_template.ds.template_ref # aliases[0], as { provider = "e2b", value = "data-science" }
}
