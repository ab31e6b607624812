# apt: Debian packages, installed as root after apt-get update (E2B's aptInstall).
resource "sandbox_template" "apt" {
  backend     = "e2b"
  template_id = "with-ffmpeg"
  image       = "e2bdev/code-interpreter:latest"
  steps = [
    { apt = { packages = ["ffmpeg", "libgl1"], no_install_recommends = true } },
  ]
}
