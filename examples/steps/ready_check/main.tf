# ready_check: a typed ready command instead of ready_cmd, rendered as E2B's SDK renders its wait
# helpers: port, url (with status_code), process, file or timeout.
resource "sandbox_template" "ready_check" {
  backend     = "e2b"
  template_id = "api"
  image       = "python:3.12-slim"
  start_cmd   = "python -m http.server 8000"
  ready_check = { url = "http://localhost:8000/", status_code = 200 }
}
