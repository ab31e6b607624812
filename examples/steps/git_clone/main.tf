# git_clone: a repository, optionally one branch (branch) and shallow (depth). force = true re-runs
# it on every build instead of reusing E2B's cached layer; with rebuild_triggers, a moved commit
# rebuilds the template and clones again.
variable "cookbook_commit" {
  type    = string
  default = "main"
}

resource "sandbox_template" "git_clone" {
  backend          = "e2b"
  template_id      = "with-cookbook"
  image            = "e2bdev/code-interpreter:latest"
  rebuild_triggers = { cookbook = var.cookbook_commit }
  steps = [
    { git_clone = { url = "https://github.com/e2b-dev/e2b-cookbook", branch = "main", depth = 1, path = "/home/user/cookbook" }, force = true },
  ]
}
