# The platform module: one template per backend, and their references as outputs.
terraform {
  required_providers {
    sandbox = { source = "sandboxtf/sandbox" }
  }
}

# Images built FROM each backend's code-interpreter image keep its default start command.
resource "sandbox_template" "e2b" {
  backend     = "e2b"
  template_id = "data-science"
  image       = "ghcr.io/acme/ds-e2b:1.4" # FROM e2bdev/code-interpreter
  packages    = ["pandas==2.2.3"]
}

resource "sandbox_template" "opensandbox" {
  backend     = "opensandbox"
  template_id = "data-science"
  image       = "ghcr.io/acme/ds-osb:1.4" # FROM opensandbox/code-interpreter:v1.1.0
  packages    = ["pandas==2.2.3"]
}

# AgentCore has no custom templates: template_ref is null (UNSUPPORTED), or the interpreter's id
# when template_id names an existing READY code interpreter (SKIPPED).
resource "sandbox_template" "bedrock" {
  backend     = "bedrock"
  template_id = "aws.codeinterpreter.v1"
}

output "templates" {
  value = {
    e2b         = sandbox_template.e2b.template_ref
    opensandbox = sandbox_template.opensandbox.template_ref
    bedrock     = sandbox_template.bedrock.template_ref
  }
}

# A snapshot keeps files, not processes: OpenSandbox consumers also need the entrypoint.
output "opensandbox_entrypoint" {
  value = sandbox_template.opensandbox.sandbox_entrypoint
}
