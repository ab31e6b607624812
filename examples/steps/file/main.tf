# file: a local file or folder (source) or inline content, placed at destination with an optional
# mode and owner. The files are read at plan time: editing one changes files_hash and rebuilds.
resource "sandbox_template" "file" {
  backend     = "e2b"
  template_id = "web-app"
  image       = "python:3.12-slim"
  start_cmd   = "python /app/app.py"
  steps = [
    { file = { source = "${path.module}/files/app.py", destination = "/app/", mode = "0755" } },
    { file = { content = "LOG_LEVEL=info\n", destination = "/app/.env", owner = "user" } },
  ]
  ready_check = { port = 8000 }
}
