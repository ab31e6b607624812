# A data-science template on E2B, built from a private ECR image. E2B exchanges the AWS key for
# an ECR login itself. On Terraform/OpenTofu >= 1.11 prefer the write-only variant below.
# The image is built FROM e2bdev/code-interpreter, so the default start command (the code
# interpreter's start script) exists in it; any other image sets start_cmd, or start_cmd = "".
resource "sandbox_template" "py" {
  backend     = "e2b"
  template_id = "data-science"
  image       = "123456789012.dkr.ecr.us-east-1.amazonaws.com/ds:1.4"

  registry_auth = {
    aws = {
      access_key_id     = var.key_id
      secret_access_key = var.secret # sensitive, but stored in state
      region            = "us-east-1"
    }
  }

  packages  = ["pandas==2.2.3", "numpy"]
  cpu_count = 2
  memory_mb = 2048

  timeouts = {
    create = "45m"
  }
}

# The same packages as an OpenSandbox snapshot, from a public image that has no code interpreter:
# start_cmd = "" builds it with OpenSandbox's neutral entrypoint instead of the code interpreter's.
resource "sandbox_template" "py_opensandbox" {
  backend     = "opensandbox"
  template_id = "data-science"
  image       = "python:3.12-slim"
  start_cmd   = ""
  packages    = ["pandas==2.2.3", "numpy"]
}

output "ref" {
  value = sandbox_template.py.template_ref # { provider = "e2b", value = "data-science" }
}

variable "key_id" {
  type = string
}

variable "secret" {
  type      = string
  sensitive = true
}
