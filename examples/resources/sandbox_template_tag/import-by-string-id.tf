import {
  to = sandbox_template_tag.prod
  id = "e2b/agent:prod"
}
