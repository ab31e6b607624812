# pip: Python packages, into the system's Python as root (global, the default) or with --user.
# packages = [...] is the short form of one global pip step, run before steps.
resource "sandbox_template" "pip" {
  backend     = "opensandbox"
  template_id = "with-pandas"
  image       = "opensandbox/code-interpreter:v1.1.0"
  steps = [
    { pip = { packages = ["pandas==2.2.3", "pyarrow>=17"] } },
    { user = "analyst" },
    { pip = { packages = ["jupyterlab-git"], global = false } }, # pip install --user, as analyst
  ]
}
