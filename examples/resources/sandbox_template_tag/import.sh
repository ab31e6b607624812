# An E2B template's tag, as <template_id>:<tag>:
terraform import sandbox_template_tag.prod agent:prod

# With the backend, as <backend>/<template_id>:<tag>:
terraform import sandbox_template_tag.prod e2b/agent:prod
