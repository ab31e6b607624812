package provider

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders/imagedigest/imagedigesttest"
	"github.com/sandboxtf/terraform-provider-sandbox/internal/emulator/e2bemu"
)

const (
	registryUser     = "ci-bot"
	registryPassword = "digest-registry-password"
)

// digestTemplate builds from image in the test registry, logging in as the build would.
func digestTemplate(emu *e2bemu.Server, image, check, password string) string {
	return e2bTemplate(emu, fmt.Sprintf(`
  image              = %q
  start_cmd          = ""
  image_digest_check = %q
  registry_auth = {
    basic = {
      username = %q
      password = %q
    }
  }
`, image, check, registryUser, password))
}

// builtFrom checks the image the n-th build (from 1) started from.
func builtFrom(emu *e2bemu.Server, n int, image *string) resource.TestCheckFunc {
	return func(*terraform.State) error {
		starts := emu.BuildStarts()
		if len(starts) < n {
			return fmt.Errorf("emulator started %d builds, want at least %d", len(starts), n)
		}
		got := "no image"
		if from := starts[n-1].Body.FromImage; from != nil {
			got = *from
		}
		if got != *image {
			return fmt.Errorf("build %d started from %s, want %s", n, got, *image)
		}
		return nil
	}
}

// TestAccTemplateImageDigestFollowsTheTag: a new image pushed under the same tag rebuilds the
// template exactly once, from the new digest; the plan after that is empty.
func TestAccTemplateImageDigestFollowsTheTag(t *testing.T) {
	emu := newE2B(t)
	reg := imagedigesttest.New(t, registryUser, registryPassword)
	first := reg.Push(t, "team/app:main")
	image := reg.Host + "/team/app:main"
	config := digestTemplate(emu, image, digestCheckWarn, registryPassword)
	var second string
	firstPull, secondPull := reg.Host+"/team/app@"+first, ""
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: protoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config: config,
				Check: resource.ComposeTestCheckFunc(buildsAre(emu, 1), builtFrom(emu, 1, &firstPull),
					resource.TestCheckResourceAttr(resourceName, "image_digest", first)),
			},
			{
				PreConfig: func() {
					second = reg.Push(t, "team/app:main") // CI pushed a new image under the tag
					secondPull = reg.Host + "/team/app@" + second
				},
				Config: config,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(resourceName, plancheck.ResourceActionUpdate),
					plancheck.ExpectUnknownValue(resourceName, tfjsonpath.New("last_built_at")),
				}},
				Check: resource.ComposeTestCheckFunc(buildsAre(emu, 2), builtFrom(emu, 2, &secondPull),
					resource.TestCheckResourceAttrPtr(resourceName, "image_digest", &second)),
			},
			{
				Config:           config,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
				Check:            buildsAre(emu, 2),
			},
		},
	})
}

// TestAccTemplateImageDigestPinned: an image pinned by digest never rebuilds when its tag moves,
// and costs no registry request at plan.
func TestAccTemplateImageDigestPinned(t *testing.T) {
	emu := newE2B(t)
	reg := imagedigesttest.New(t, registryUser, registryPassword)
	digest := reg.Push(t, "team/app:main")
	pinned := reg.Host + "/team/app@" + digest
	config := digestTemplate(emu, pinned, digestCheckStrict, registryPassword)
	var requests int64
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: protoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config: config,
				Check: resource.ComposeTestCheckFunc(buildsAre(emu, 1), builtFrom(emu, 1, &pinned),
					resource.TestCheckResourceAttr(resourceName, "image_digest", digest)),
			},
			{
				PreConfig: func() {
					reg.Push(t, "team/app:main")
					requests = reg.Requests()
				},
				Config:           config,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
				Check: resource.ComposeTestCheckFunc(buildsAre(emu, 1), func(*terraform.State) error {
					if n := reg.Requests() - requests; n != 0 {
						return fmt.Errorf("plans of a pinned image sent %d registry requests, want 0", n)
					}
					return nil
				}),
			},
		},
	})
}

// TestAccTemplateImageDigestOff: the default asks no registry and builds the tag as it is, so a
// moved tag does not rebuild.
func TestAccTemplateImageDigestOff(t *testing.T) {
	emu := newE2B(t)
	reg := imagedigesttest.New(t, registryUser, registryPassword)
	reg.Push(t, "team/app:main")
	image := reg.Host + "/team/app:main"
	config := e2bTemplate(emu, fmt.Sprintf("  image = %q\n  start_cmd = \"\"\n", image))
	var requests int64
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: protoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				PreConfig: func() { requests = reg.Requests() },
				Config:    config,
				Check: resource.ComposeTestCheckFunc(buildsAre(emu, 1), builtFrom(emu, 1, &image),
					resource.TestCheckNoResourceAttr(resourceName, "image_digest"),
					resource.TestCheckResourceAttr(resourceName, "image_digest_check", digestCheckOff)),
			},
			{
				PreConfig:        func() { reg.Push(t, "team/app:main"); requests = reg.Requests() },
				Config:           config,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
				Check: resource.ComposeTestCheckFunc(buildsAre(emu, 1), func(*terraform.State) error {
					if n := reg.Requests() - requests; n != 0 {
						return fmt.Errorf("image_digest_check = off sent %d registry requests, want 0", n)
					}
					return nil
				}),
			},
		},
	})
}

// TestAccTemplateImageDigestUnreachable: a registry the plan cannot log in to is a warning that
// builds the tag as it is, unless image_digest_check is strict, which fails the plan first.
func TestAccTemplateImageDigestUnreachable(t *testing.T) {
	emu := newE2B(t)
	reg := imagedigesttest.New(t, registryUser, registryPassword)
	reg.Push(t, "team/app:main")
	image := reg.Host + "/team/app:main"
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: protoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config:      digestTemplate(emu, image, digestCheckStrict, "wrong-password"),
				ExpectError: expectError(`(?s)Could not resolve the image's digest.*401.*strict`),
			},
			{
				Config: digestTemplate(emu, image, digestCheckWarn, "wrong-password"),
				Check: resource.ComposeTestCheckFunc(buildsAre(emu, 1), builtFrom(emu, 1, &image),
					resource.TestCheckNoResourceAttr(resourceName, "image_digest")),
			},
		},
	})
}

// TestAccTemplateImageDigestBoundedByRequestTimeout: a registry that never answers holds the plan
// for request_timeout, not longer, and the error names the setting.
func TestAccTemplateImageDigestBoundedByRequestTimeout(t *testing.T) {
	hung := httptest.NewServer(http.HandlerFunc(func(_ http.ResponseWriter, r *http.Request) { <-r.Context().Done() }))
	t.Cleanup(hung.Close)
	emu := e2bemu.NewTestServer(t, e2bemu.Options{APIKey: testE2BAPIKey})
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: protoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config: routedTemplate(emu, `  request_timeout = "1s"`, strings.TrimPrefix(hung.URL, "http://")+"/team/app:main",
				"basic = {\n      username = \"ci\"\n      password = \"pw\"\n    }"),
			ExpectError: expectError(`(?s)Could not resolve the image's digest.*` + words("did not answer in time").String() + `.*` + words(`request_timeout = "1s" bounds the whole check`).String()),
		}},
	})
}
