# An E2B template, by its alias:
terraform import sandbox_template.py data-science

# Any backend, as <backend>/<template_id>:
terraform import sandbox_template.py_opensandbox opensandbox/data-science
