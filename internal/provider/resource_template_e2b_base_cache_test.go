package provider

import (
	"fmt"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders"
	"github.com/sandboxtf/terraform-provider-sandbox/internal/emulator/e2bemu"
)

// TestAccTemplateE2BRotatedCredentialsUncheckedWhileTheBaseIsCached: E2B keys the base layer on
// the image's name, not its credentials (phases/base/hash.go), and does not pull a cached base
// (core/rootfs/rootfs.go runs only when the layer is built). So after a private image was built
// once, a build with rotated (here: wrong) credentials succeeds without the registry seeing them,
// even when rebuild_triggers forces a new build; only force_rebuild pulls, and the wrong password
// then fails at IMAGE_PULL.
func TestAccTemplateE2BRotatedCredentialsUncheckedWhileTheBaseIsCached(t *testing.T) {
	emu := e2bEmulator(t)
	config := func(password, trigger string, force bool) string {
		return e2bTemplate(emu, fmt.Sprintf(`
  image            = "registry.test/team/app:1"
  start_cmd        = "" # the image has no E2B start script
  force_rebuild    = %t
  rebuild_triggers = { credentials = %q }
  registry_auth = {
    basic = {
      username = %q
      password = %q
    }
  }`, force, trigger, e2bemu.PrivateRegistryUser, password))
	}
	baseCached := func(want bool) resource.TestCheckFunc {
		return func(*terraform.State) error {
			info, _ := emu.Template("py")
			last := info.Builds[len(info.Builds)-1]
			if len(last.Layers) == 0 || last.Layers[0].Cached != want {
				return fmt.Errorf("build %s: layers %+v, want the base cached=%v", last.BuildID, last.Layers, want)
			}
			return nil
		}
	}
	success := []statecheck.StateCheck{statecheck.ExpectKnownValue(resourceName, tfjsonpath.New("status"), knownvalue.StringExact("SUCCESS"))}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: protoV6ProviderFactories,
		Steps: []resource.TestStep{
			{Config: config(e2bemu.PrivateRegistryPassword, "1", false), ConfigStateChecks: success,
				Check: resource.ComposeTestCheckFunc(buildsAre(emu, 1), baseCached(false))},
			{Config: config("rotated-but-wrong", "2", false), ConfigStateChecks: success,
				Check: resource.ComposeTestCheckFunc(buildsAre(emu, 2), baseCached(true))},
			{Config: config("rotated-but-wrong", "3", true),
				ExpectError: expectError(`(?s)Template build failed at stage ` + string(builders.StageImagePull) + `.*` +
					words("access denied to 'registry.test/team/app:1'").String())},
		},
	})
}
