package provider

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders"
	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders/e2b"
)

// TestAccTemplateImportAdoptsOnlyMatchingInputs: the first apply after an import adopts the
// configuration without a build only when the template's current build was made from those
// inputs; one built from python:3.12's code-interpreter image is rebuilt for a configuration that
// says 1.0, instead of adopting it and showing nothing, ever.
func TestAccTemplateImportAdoptsOnlyMatchingInputs(t *testing.T) {
	for _, tt := range []struct {
		name, image, status string
		builds              int
	}{
		{"same inputs", "e2bdev/code-interpreter:latest", "SKIPPED", 1},
		{"other inputs", "e2bdev/code-interpreter:1.0", "SUCCESS", 2},
	} {
		t.Run(tt.name, func(t *testing.T) {
			emu := newE2B(t)
			builder, err := e2b.New(e2b.Config{APIKey: builders.NewSecret(testE2BAPIKey), APIURL: emu.URL})
			if err != nil {
				t.Fatal(err)
			}
			if got := builders.Ensure(t.Context(), builder, builders.TemplateSpec{TemplateID: "py", Image: "e2bdev/code-interpreter:latest"}); got.Status != builders.StatusSuccess {
				t.Fatalf("building the template to import: %+v", got)
			}
			config := e2bTemplate(emu, `  image = "`+tt.image+`"`)
			resource.Test(t, resource.TestCase{
				ProtoV6ProviderFactories: protoV6ProviderFactories,
				Steps: []resource.TestStep{
					{Config: config, ResourceName: resourceName, ImportState: true, ImportStateId: "e2b/py", ImportStatePersist: true},
					{Config: config, Check: resource.ComposeTestCheckFunc(buildsAre(emu, tt.builds),
						resource.TestCheckResourceAttr(resourceName, "status", tt.status))},
				},
			})
		})
	}
}
