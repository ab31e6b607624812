# npm: Node packages, globally as root (global = true) or into the working directory.
resource "sandbox_template" "npm" {
  backend     = "e2b"
  template_id = "with-typescript"
  image       = "e2bdev/code-interpreter:latest"
  steps = [
    { npm = { packages = ["typescript@5", "tsx"], global = true } },
  ]
}
