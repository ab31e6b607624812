# Terraform >= 1.12 and OpenTofu >= 1.12: an import block by identity instead of an ID string.
import {
  to = sandbox_template_tag.staging
  identity = {
    backend     = "e2b"
    template_id = "agent"
    tag         = "staging"
  }
}
