# `terraform query` (Terraform >= 1.14): the E2B team's templates, with the resource an import starts from.
list "sandbox_template" "e2b" {
  provider         = sandbox
  include_resource = true
  config {
    backend = "e2b"
  }
}

# The names of OpenSandbox's Ready snapshots.
list "sandbox_template" "opensandbox" {
  provider = sandbox
  config {
    backend = "opensandbox"
  }
}
