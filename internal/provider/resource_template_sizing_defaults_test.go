package provider

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
)

// TestAccTemplateE2BWritingOutSizingDefaultsBuildsNothing: cpu_count and memory_mb unset mean
// their defaults (2 and 1024, what E2B builds with and what the build's fingerprint records), so
// writing the defaults out, or removing them again, is no change of build input: the update plans
// the recorded outcome and builds nothing, even with force_rebuild = true left in the
// configuration (it forces a build on create and on a change of inputs, not on every update). A
// real change of size still builds. Found by the lifecycle model (seed 13 without its check).
func TestAccTemplateE2BWritingOutSizingDefaultsBuildsNothing(t *testing.T) {
	emu := newE2B(t)
	const image = "  image         = \"e2bdev/code-interpreter:latest\"\n  force_rebuild = true\n"
	keepsOutcome := resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
		plancheck.ExpectResourceAction(resourceName, plancheck.ResourceActionUpdate),
		plancheck.ExpectKnownValue(resourceName, tfjsonpath.New("status"), knownvalue.StringExact("SUCCESS")),
		plancheck.ExpectKnownValue(resourceName, tfjsonpath.New("build_id"), knownvalue.NotNull()),
	}}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: protoV6ProviderFactories,
		Steps: []resource.TestStep{
			{Config: e2bTemplate(emu, image), Check: buildsAre(emu, 1)},
			{
				Config:           e2bTemplate(emu, image+"  cpu_count     = 2\n  memory_mb     = 1024\n"),
				ConfigPlanChecks: keepsOutcome,
				Check:            buildsAre(emu, 1),
			},
			{Config: e2bTemplate(emu, image), ConfigPlanChecks: keepsOutcome, Check: buildsAre(emu, 1)},
			{
				Config: e2bTemplate(emu, image+"  cpu_count     = 4\n"),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectUnknownValue(resourceName, tfjsonpath.New("build_id"))}},
				Check: buildsAre(emu, 2),
			},
		},
	})
}
