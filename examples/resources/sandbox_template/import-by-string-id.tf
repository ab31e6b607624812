import {
  to = sandbox_template.py
  id = "e2b/data-science"
}
