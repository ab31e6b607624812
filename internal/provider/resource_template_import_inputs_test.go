package provider

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders"
	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders/e2b"
	"github.com/sandboxtf/terraform-provider-sandbox/internal/emulator/e2bemu"
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
			if got := builders.Ensure(t.Context(), builder, builders.TemplateSpec{TemplateID: "py", Image: "e2bdev/code-interpreter:latest"}, builders.Observer{}); got.Status != builders.StatusSuccess {
				t.Fatalf("building the template to import: %+v", got)
			}
			config := e2bTemplate(emu, `  image = "`+tt.image+`"`)
			resource.ParallelTest(t, resource.TestCase{
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

// TestAccTemplateCreateAfterLostStateRebuildsOtherInputs: a run killed mid-build (kill -9) loses
// its state; the template it built from pkg-a is found by the next apply, whose configuration now
// says pkg-b. It is rebuilt, not recorded SKIPPED with inputs it was never built from.
func TestAccTemplateCreateAfterLostStateRebuildsOtherInputs(t *testing.T) {
	emu := newE2B(t)
	builder, err := e2b.New(e2b.Config{APIKey: builders.NewSecret(testE2BAPIKey), APIURL: emu.URL})
	if err != nil {
		t.Fatal(err)
	}
	lost := builders.TemplateSpec{TemplateID: "py", Image: "e2bdev/code-interpreter:latest", Packages: []string{"pkg-a==1.0"}}
	if got := builders.Ensure(t.Context(), builder, lost, builders.Observer{}); got.Status != builders.StatusSuccess {
		t.Fatalf("the build whose state was lost: %+v", got)
	}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: protoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config: e2bTemplate(emu, `
  image    = "e2bdev/code-interpreter:latest"
  packages = ["pkg-b==2.0"]
`),
			Check: resource.ComposeTestCheckFunc(buildsAre(emu, 2), resource.TestCheckResourceAttr(resourceName, "status", "SUCCESS")),
		}},
	})
}

// TestAccTemplateConcurrentCreatesOfOneTemplate: two creates of the same E2B template at once
// (two resources here; two working directories behave alike) end with one finished build. Either
// the second finds the first's build running and waits for it, or both registered at once and the
// second start cancels the first build (CheckAndCancelConcurrentBuilds), whose creator waits for
// the winner; either way one records SUCCESS and the other SKIPPED.
func TestAccTemplateConcurrentCreatesOfOneTemplate(t *testing.T) {
	emu := newE2B(t)
	emu.HangBuild("py")
	go func() { // release once the race is decided, however slowly the two creates run
		for !oneBuildLeft(emu, "py") {
			time.Sleep(5 * time.Millisecond)
		}
		emu.ReleaseBuild("py")
	}()
	config := e2bProvider(emu) + `
resource "sandbox_template" "a" {
  backend     = "e2b"
  template_id = "py"
  image       = "e2bdev/code-interpreter:latest"
}
resource "sandbox_template" "b" {
  backend     = "e2b"
  template_id = "py"
  image       = "e2bdev/code-interpreter:latest"
}
`
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: protoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config: config,
			Check: func(s *terraform.State) error {
				statuses := map[string]int{}
				for _, name := range []string{"sandbox_template.a", "sandbox_template.b"} {
					statuses[s.RootModule().Resources[name].Primary.Attributes["status"]]++
				}
				if statuses["SUCCESS"] != 1 || statuses["SKIPPED"] != 1 {
					return fmt.Errorf("statuses %v, want one SUCCESS and one SKIPPED", statuses)
				}
				info, _ := emu.Template("py")
				ready := 0
				for _, b := range info.Builds {
					if b.Status == "ready" {
						ready++
					}
				}
				if ready != 1 {
					return fmt.Errorf("%d ready builds, want 1: %+v", ready, info.Builds)
				}
				return nil
			},
		}},
	})
}

// oneBuildLeft tells whether the race of two creates of template is decided: one build runs, none
// waits to start, and a create whose own build lost has looked at the template's builds since that
// one started (waitForConcurrentBuilds), so it waits for it instead of building again.
func oneBuildLeft(emu *e2bemu.Server, template string) bool {
	info, ok := emu.Template(template)
	if !ok {
		return false
	}
	running := ""
	for _, b := range info.Builds {
		switch {
		case b.Status == "waiting", b.Status == "building" && running != "":
			return false
		case b.Status == "building":
			running = b.BuildID
		}
	}
	started := false
	for _, r := range emu.Requests() {
		switch {
		case r.Method == "POST" && strings.HasSuffix(r.Path, "/builds/"+running):
			started = true
		case started && r.Method == "GET" && r.Path == "/templates/"+info.TemplateID:
			return true
		}
	}
	return false
}
