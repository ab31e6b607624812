# run: a shell command, as the current user or as user (E2B's runCmd).
resource "sandbox_template" "run" {
  backend     = "e2b"
  template_id = "with-duckdb"
  image       = "e2bdev/code-interpreter:latest"
  steps = [
    { run = { command = "curl -fsSL https://install.duckdb.org | sh", user = "root" } },
  ]
}
