# The consuming module: it takes a template_ref and turns it into what its sandbox starter reads.
# It needs no sandbox provider: a template_ref is plain data.
variable "template_ref" {
  description = "sandbox_template.<name>.template_ref (or the sandbox_template data source's)."
  type = object({
    provider = string
    value    = string
  })
  nullable = true # Bedrock without a custom interpreter: use the AWS-managed one

  validation {
    condition     = var.template_ref == null ? true : contains(["e2b", "opensandbox", "bedrock"], var.template_ref.provider)
    error_message = "template_ref.provider must be e2b, opensandbox or bedrock."
  }
}

variable "opensandbox_entrypoint" {
  description = "OpenSandbox only: sandbox_template.<name>.sandbox_entrypoint (a sandbox restored from a snapshot otherwise runs `tail -f /dev/null`)."
  type        = list(string)
  default     = null
}

locals {
  backend = var.template_ref == null ? "bedrock" : var.template_ref.provider

  # What each backend's SDK is given to start a sandbox from the template.
  sandbox_env = {
    # E2B SDKs: Sandbox.create(template=os.environ["E2B_TEMPLATE"]), with the same team's E2B_API_KEY.
    e2b = { E2B_TEMPLATE = try(var.template_ref.value, "") }
    # OpenSandbox: the newest Ready snapshot with this name (GET /snapshots?name=...&state=Ready),
    # then POST /sandboxes with its snapshotId and this entrypoint.
    opensandbox = {
      OPEN_SANDBOX_SNAPSHOT_NAME = try(var.template_ref.value, "")
      OPEN_SANDBOX_ENTRYPOINT    = jsonencode(coalesce(var.opensandbox_entrypoint, ["/opt/code-interpreter/code-interpreter.sh"]))
    }
    # AgentCore: StartCodeInterpreterSession(codeInterpreterIdentifier=...).
    bedrock = { CODE_INTERPRETER_ID = try(var.template_ref.value, "aws.codeinterpreter.v1") }
  }
}

output "sandbox_env" {
  description = "Environment for the service that starts sandboxes."
  value       = local.sandbox_env[local.backend]
}
