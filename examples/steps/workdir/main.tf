# workdir: the working directory of the steps after it and of the template's sandboxes, created
# when missing; a relative one is relative to the current one.
resource "sandbox_template" "workdir" {
  backend     = "e2b"
  template_id = "project"
  image       = "e2bdev/code-interpreter:latest"
  steps = [
    { workdir = "/home/user/project" },
    { npm = { packages = ["zod"] } }, # into /home/user/project/node_modules
  ]
}
