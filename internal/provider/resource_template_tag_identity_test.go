package provider

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/querycheck"
	"github.com/hashicorp/terraform-plugin-testing/querycheck/queryfilter"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
	"github.com/hashicorp/terraform-plugin-testing/tfversion"
)

func tagIdentity(tag string) map[string]knownvalue.Check {
	return map[string]knownvalue.Check{"backend": knownvalue.StringExact("e2b"), "template_id": knownvalue.StringExact("py"),
		"tag": knownvalue.StringExact(tag)}
}

// TestAccTemplateTagImport: a tag imports by "<backend>/<template_id>:<tag>" (or without the
// backend, E2B's) as the state its resource recorded: target is the build it points at.
func TestAccTemplateTagImport(t *testing.T) {
	emu := e2bEmulator(t)
	config := e2bTemplate(emu, pyBody) + prodAt("sandbox_template.py.build_id")
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: protoV6ProviderFactories,
		Steps: []resource.TestStep{
			{Config: config},
			{ResourceName: prodName, ImportState: true, ImportStateId: "e2b/py:prod", ImportStateVerify: true},
			{ResourceName: prodName, ImportState: true, ImportStateId: "py:prod", ImportStateVerify: true},
			{ResourceName: prodName, ImportState: true, ImportStateId: "py", ExpectError: expectError(`Invalid import ID`)},
			{ResourceName: prodName, ImportState: true, ImportStateId: "opensandbox/py:prod", ExpectError: expectError(`no build tags`)},
		},
	})
}

// TestAccTemplateTagIdentity: every apply records the identity, and an `import` block by
// identity finds the tag again with nothing to change.
func TestAccTemplateTagIdentity(t *testing.T) {
	emu := e2bEmulator(t)
	config := e2bTemplate(emu, pyBody) + prodAt("sandbox_template.py.build_id")
	resource.ParallelTest(t, resource.TestCase{
		TerraformVersionChecks:   []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_12_0)},
		ProtoV6ProviderFactories: protoV6ProviderFactories,
		Steps: []resource.TestStep{
			{Config: config, ConfigStateChecks: []statecheck.StateCheck{statecheck.ExpectIdentity(prodName, tagIdentity("prod"))}},
			{
				ResourceName: prodName, ImportState: true, ImportStateKind: resource.ImportBlockWithResourceIdentity,
				ImportPlanChecks: resource.ImportPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(prodName, plancheck.ResourceActionNoop)}},
			},
		},
	})
}

// TestAccTemplateTagList: `terraform query` lists a template's tags with their identities, and
// the resource an import would start from, leaving out the provider's own inputs-* tags.
func TestAccTemplateTagList(t *testing.T) {
	emu := e2bEmulator(t)
	resource.ParallelTest(t, resource.TestCase{
		TerraformVersionChecks:   []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_14_0)},
		ProtoV6ProviderFactories: protoV6ProviderFactories,
		Steps: []resource.TestStep{
			{Config: e2bTemplate(emu, pyBody+`  tags = ["v1"]`) + prodAt("sandbox_template.py.build_id")},
			{
				Query: true,
				Config: `
list "sandbox_template_tag" "py" {
  provider         = sandbox
  include_resource = true
  config {
    backend     = "e2b"
    template_id = "py"
  }
}
`,
				QueryResultChecks: []querycheck.QueryResultCheck{
					querycheck.ExpectLength("sandbox_template_tag.py", 3),
					querycheck.ExpectIdentity("sandbox_template_tag.py", tagIdentity("default")),
					querycheck.ExpectIdentity("sandbox_template_tag.py", tagIdentity("v1")),
					querycheck.ExpectIdentity("sandbox_template_tag.py", tagIdentity("prod")),
					querycheck.ExpectResourceDisplayName("sandbox_template_tag.py", queryfilter.ByResourceIdentity(tagIdentity("prod")),
						knownvalue.StringExact("py:prod")),
					querycheck.ExpectResourceKnownValues("sandbox_template_tag.py", queryfilter.ByResourceIdentity(tagIdentity("prod")),
						[]querycheck.KnownValueCheck{
							{Path: tfjsonpath.New("template_ref").AtMapKey("value"), KnownValue: knownvalue.StringExact("py:prod")},
							{Path: tfjsonpath.New("build_id"), KnownValue: knownvalue.NotNull()},
						}),
				},
			},
		},
	})
}
