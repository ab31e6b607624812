# A data-science template built without a custom image: system libraries, Python packages,
# configuration and sample data added in steps, on E2B's own code-interpreter template (Jupyter on
# port 49999, E2B's SDK calls it fromTemplate) and on OpenSandbox's code-interpreter image.
locals {
  python_packages = ["pandas==2.2.3", "polars==1.9.0", "scikit-learn==1.5.2", "matplotlib==3.9.2", "pyarrow==17.0.0"]
}

resource "sandbox_template" "data_science" {
  backend       = "e2b"
  template_id   = "data-science"
  base_template = "code-interpreter-v1" # keeps its start and ready commands

  packages = local.python_packages # one pip step, run first
  steps = [
    { apt = { packages = ["ffmpeg", "libgl1", "graphviz"], no_install_recommends = true } },
    { pip = { packages = ["opencv-python-headless==4.10.0.84", "graphviz==0.20.3"] } },
    { env = { MPLBACKEND = "Agg", DATA_DIR = "/home/user/data" } },
    { file = { source = "${path.module}/files/matplotlibrc", destination = "/home/user/.config/matplotlib/", owner = "user" } },
    { git_clone = { url = "https://github.com/mwaskom/seaborn-data", path = "/home/user/data", depth = 1, user = "user" } },
    { workdir = "/home/user" },
  ]

  cpu_count        = 2
  memory_mb        = 4096
  min_free_disk_mb = 2048 # room for the notebooks' own data
}

# A sandbox of the E2B template runs as its user in its workdir, but gets the env steps' variables
# only when created with them: Sandbox.create("data-science", { envs: <this output> }).
output "e2b_sandbox_env" {
  sensitive = true # sandbox_env is sensitive: an env step is where API keys go
  value     = sandbox_template.data_science.sandbox_env # { DATA_DIR = "/home/user/data", MPLBACKEND = "Agg" }
}

# The same on OpenSandbox, as a snapshot. Its image has no "user" account, so a step creates one.
# A snapshot keeps files only: whoever starts sandboxes from it passes sandbox_entrypoint,
# sandbox_env, and runs commands in sandbox_workdir as sandbox_user.
resource "sandbox_template" "data_science_opensandbox" {
  backend     = "opensandbox"
  template_id = "data-science"
  image       = "opensandbox/code-interpreter:v1.1.0"

  packages = local.python_packages
  steps = [
    { apt = { packages = ["ffmpeg", "libgl1", "graphviz"], no_install_recommends = true } },
    { pip = { packages = ["opencv-python-headless==4.10.0.84", "graphviz==0.20.3"] } },
    { env = { MPLBACKEND = "Agg", DATA_DIR = "/home/analyst/data" } },
    { user = "analyst" },
    { file = { source = "${path.module}/files/matplotlibrc", destination = "/home/analyst/.config/matplotlib/" } },
    { git_clone = { url = "https://github.com/mwaskom/seaborn-data", path = "/home/analyst/data", depth = 1 } },
    { workdir = "/home/analyst" },
  ]
  ready_check = { url = "http://127.0.0.1:44771/api" } # its Jupyter answers, before the snapshot
}

output "opensandbox_start" {
  sensitive = true # sandbox_env is sensitive: an env step is where API keys go
  value = {
    entrypoint = sandbox_template.data_science_opensandbox.sandbox_entrypoint
    env        = sandbox_template.data_science_opensandbox.sandbox_env
    workdir    = sandbox_template.data_science_opensandbox.sandbox_workdir # /home/analyst
    user       = sandbox_template.data_science_opensandbox.sandbox_user    # analyst
  }
}
