# Configure only the backends you use. Every setting falls back to the vendor SDK's environment
# variable (E2B_API_KEY, OPEN_SANDBOX_DOMAIN, DAYTONA_API_KEY, AWS_REGION, ...), so CI can leave this block empty.
provider "sandbox" {
  e2b {
    api_key = var.e2b_api_key # or E2B_API_KEY
  }

  opensandbox {
    domain  = "opensandbox.internal:8080" # or OPEN_SANDBOX_DOMAIN
    api_key = var.opensandbox_api_key     # or OPEN_SANDBOX_API_KEY
  }

  daytona {
    api_key = var.daytona_api_key # or DAYTONA_API_KEY
  }

  aws {
    region = "us-east-1" # Bedrock AgentCore, and ECR logins for OpenSandbox
  }
}

variable "e2b_api_key" {
  type      = string
  sensitive = true
}

variable "daytona_api_key" {
  type      = string
  sensitive = true
}

variable "opensandbox_api_key" {
  type      = string
  sensitive = true
}
