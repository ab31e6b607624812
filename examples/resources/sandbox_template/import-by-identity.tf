# Terraform >= 1.12 and OpenTofu >= 1.12: an import block by identity instead of an ID string.
import {
  to = sandbox_template.py_opensandbox
  identity = {
    backend     = "opensandbox"
    template_id = "data-science"
  }
}
