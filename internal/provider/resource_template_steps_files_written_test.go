package provider

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders"
	"github.com/sandboxtf/terraform-provider-sandbox/internal/emulator/e2bemu"
)

// TestAccTemplateFilesWrittenDuringApply: a file step whose file a resource of the configuration
// (terraform_data's local-exec) rewrites during the apply. The template depends on that resource,
// so Terraform plans it again once the file is written; a files_hash read at the first plan would
// then have moved, which Terraform refuses as "Provider produced inconsistent final plan". A plan
// that builds leaves files_hash to the apply, which records, and E2B receives, the files as written,
// on the create and on a rebuild; a plan that keeps the build knows it.
func TestAccTemplateFilesWrittenDuringApply(t *testing.T) {
	emu := e2bEmulator(t)
	file := filepath.Join(t.TempDir(), "app.conf")
	if err := os.WriteFile(file, []byte("stale\n"), 0o644); err != nil { // the plan reads it before the writer runs
		t.Fatal(err)
	}
	config := func(content, command, settings string) string {
		return fmt.Sprintf(`
resource "terraform_data" "writer" {
  triggers_replace = %[1]q
  provisioner "local-exec" {
    command = "printf '%%s\\n' %[1]s > %[2]s"
  }
}
`, content, file) + e2bTemplate(emu, ciBody+fmt.Sprintf(`
  depends_on = [terraform_data.writer]
  steps = [
    { file = { source = %q, destination = "/etc/app.conf" } },
    { run = { command = %q } },
  ]
%s
`, file, command, settings))
	}
	builds := func(content string, starts int) resource.TestCheckFunc {
		return resource.ComposeTestCheckFunc(buildsAre(emu, starts), builtFromFile(emu, file, content+"\n"))
	}
	filesHashUnknown := resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
		plancheck.ExpectUnknownValue(resourceName, tfjsonpath.New("files_hash"))}}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: protoV6ProviderFactories,
		Steps: []resource.TestStep{
			{Config: config("one", "true", ""), ConfigPlanChecks: filesHashUnknown, Check: builds("one", 1)},
			// the writer writes anew and a step changes: a rebuild, of the files as written now
			{Config: config("two", "true && true", ""), ConfigPlanChecks: filesHashUnknown, Check: builds("two", 2)},
			{Config: config("two", "true && true", ""), PlanOnly: true}, // the files as recorded: nothing to do
			// a plan that keeps the build (keep_remotely alone changes) knows the recorded hash
			{Config: config("two", "true && true", "  keep_remotely = true"),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(resourceName, plancheck.ResourceActionUpdate),
					plancheck.ExpectKnownValue(resourceName, tfjsonpath.New("files_hash"), knownvalue.NotNull())}},
				Check: builds("two", 2)},
		},
	})
}

// builtFromFile checks that the state's files_hash and the filesHash of the last build's COPY are those
// of the file holding content.
func builtFromFile(emu *e2bemu.Server, file, content string) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		step := builders.FileStep{Source: file, Destination: "/etc/app.conf"}
		files, err := step.Files()
		if err != nil {
			return err
		}
		want, err := files.Hash()
		if err != nil {
			return err
		}
		if got, _ := os.ReadFile(file); string(got) != content {
			return fmt.Errorf("the writer left %q in the file, want %q", got, content)
		}
		start, err := lastStart(emu)
		if err != nil {
			return err
		}
		if len(start.Steps) == 0 || start.Steps[0].FilesHash == nil || *start.Steps[0].FilesHash != want {
			return fmt.Errorf("the build's COPY step did not carry the filesHash of %q", content)
		}
		recorded, _ := builders.TemplateSpec{Steps: []builders.BuildStep{{File: &step}}}.FilesHash()
		return resource.TestCheckResourceAttr(resourceName, "files_hash", recorded)(s)
	}
}

// TestAccTemplateFileWrittenFirstByADependency: a file that does not exist at plan, placed from the
// path a resource that writes it returns (terraform_data's output, known once it ran): the plan
// leaves the step and files_hash to the apply, which builds the file as written. (A path written
// literally must exist at plan: the framework cannot tell one a resource will write from a typo.)
func TestAccTemplateFileWrittenFirstByADependency(t *testing.T) {
	emu := e2bEmulator(t)
	file := filepath.Join(t.TempDir(), "app.conf")
	config := fmt.Sprintf(`
resource "terraform_data" "writer" {
  input = %[1]q
  provisioner "local-exec" {
    command = "printf 'one\\n' > ${self.input}"
  }
}
`, file) + e2bTemplate(emu, ciBody+`
  steps = [{ file = { source = terraform_data.writer.output, destination = "/etc/app.conf" } }]
`)
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: protoV6ProviderFactories,
		Steps: []resource.TestStep{
			{Config: config, ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
				plancheck.ExpectUnknownValue(resourceName, tfjsonpath.New("files_hash"))}},
				Check: resource.ComposeTestCheckFunc(buildsAre(emu, 1), builtFromFile(emu, file, "one\n"))},
			{Config: config, PlanOnly: true},
		},
	})
}
