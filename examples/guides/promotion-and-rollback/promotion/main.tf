# The production workspace: promotion is a reviewed change of `target`, rollback its revert.
# Neither builds anything.
terraform {
  required_providers {
    sandbox = { source = "sandboxtf/sandbox" }
  }
}

resource "sandbox_template_tag" "prod" {
  backend     = "e2b"
  template_id = "agent"
  tag         = "prod"
  target      = "9b2f6c1e-4d3a-4b8e-a1f0-2c7d5e8b9a60" # build_id of the candidate that passed its tests
}

# What production consumers pass: { provider = "e2b", value = "agent:prod" }.
output "prod_ref" {
  value = sandbox_template_tag.prod.template_ref
}
