# The demo `make demo` applies against cmd/sandbox-emulator on 127.0.0.1: scripts/demo.sh exports
# the settings the emulator prints (E2B_API_URL, OPEN_SANDBOX_DOMAIN, AWS_ENDPOINT_URL_*, AWS
# credentials and region, ...) and a dev override for the locally built provider, so the provider
# block stays empty, as in a CI job that configures everything through the environment.
#
# Every template would work on the real backend as written: each image is the one its backend's
# default start command or entrypoint belongs to.
terraform {
  required_providers {
    sandbox = {
      source = "sandboxtf/sandbox"
    }
  }
}

provider "sandbox" {}

# E2B builds from its code-interpreter image, the one image whose start script
# (/root/.jupyter/start-up.sh) the default start command runs.
resource "sandbox_template" "e2b" {
  backend     = "e2b"
  template_id = "demo-data-science"
  image       = "e2bdev/code-interpreter:latest"
  packages    = ["pandas==2.2.3", "numpy"]
}

# OpenSandbox: a sandbox from its code-interpreter image (whose entrypoint is the default one),
# the packages installed in it, then a snapshot named template_id.
resource "sandbox_template" "opensandbox" {
  backend     = "opensandbox"
  template_id = "demo-data-science"
  image       = "opensandbox/code-interpreter:v1.1.0"
  packages    = ["pandas==2.2.3", "numpy"]
}

# Daytona: a snapshot named demo-data-science:inputs-<fingerprint>, built from the image pinned by
# digest (Daytona refuses :latest) with the packages; template_ref names it, and each rebuild makes
# a new one before removing this one.
resource "sandbox_template" "daytona" {
  backend     = "daytona"
  template_id = "demo-data-science"
  image       = "python:3.12-slim@sha256:78387bc3881b8273120a12ebe6c1ab22b018ccc2c9adf565ae1ac9b536e184ea"
  packages    = ["pandas==2.2.3", "numpy"]
}

# Bedrock AgentCore has nothing to build: the template names AWS's built-in code interpreter.
resource "sandbox_template" "bedrock" {
  backend     = "bedrock"
  template_id = "aws.codeinterpreter.v1"
}

output "e2b" {
  value = {
    template_ref = sandbox_template.e2b.template_ref
    status       = sandbox_template.e2b.status
  }
}

output "opensandbox" {
  value = {
    template_ref = sandbox_template.opensandbox.template_ref
    status       = sandbox_template.opensandbox.status
    # A sandbox restored from the snapshot runs no process: whoever starts one passes this entrypoint.
    sandbox_entrypoint = sandbox_template.opensandbox.sandbox_entrypoint
  }
}

output "daytona" {
  value = {
    template_ref = sandbox_template.daytona.template_ref
    status       = sandbox_template.daytona.status
  }
}

output "bedrock" {
  value = {
    template_ref = sandbox_template.bedrock.template_ref
    status       = sandbox_template.bedrock.status
  }
}
