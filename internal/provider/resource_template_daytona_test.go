package provider

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders/daytona"
	"github.com/sandboxtf/terraform-provider-sandbox/internal/emulator/daytonaemu"
)

const (
	testDaytonaAPIKey = "dtn_test-key-0123456789"
	// testDaytonaImage is pinned, so no plan or build asks a registry for its digest.
	testDaytonaImage = "python:3.12@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
	// testProbe marks a test's own calls to the emulator, so its request hooks let them through.
	testProbe = "X-Test-Probe"
)

var daytonaSnapshotName = regexp.MustCompile(`^py:inputs-[0-9a-f]{16}$`)

func newDaytona(t *testing.T, opts daytonaemu.Options) *daytonaemu.Server {
	t.Helper()
	opts.APIKey = testDaytonaAPIKey
	return daytonaemu.NewTestServer(t, opts)
}

func daytonaConfig(emu *daytonaemu.Server, body string) string {
	return fmt.Sprintf(`
provider "sandbox" {
  daytona {
    api_url = %q
    api_key = %q
  }
}

resource "sandbox_template" "py" {
  backend     = "daytona"
  template_id = "py"
%s
}
`, emu.APIURL(), testDaytonaAPIKey, body)
}

// emuSnapshot is a snapshot as the emulator's control API lists it, removed ones included.
type emuSnapshot struct {
	ID      string `json:"id"`
	Name    string `json:"name"`
	State   string `json:"state"`
	Removed bool   `json:"removed"`
}

// emuSnapshots lists every snapshot the emulator holds, through its control API (the emulator's
// view, not the builder's): safe to call from a request hook.
func emuSnapshots(url string) ([]emuSnapshot, error) {
	resp, err := http.Get(url + daytonaemu.ControlPath + "snapshots")
	if err != nil {
		return nil, err
	}
	defer func() { _ = resp.Body.Close() }()
	var out []emuSnapshot
	return out, json.NewDecoder(resp.Body).Decode(&out)
}

// liveSnapshots are the snapshots that are not removed nor being removed.
func liveSnapshots(emu *daytonaemu.Server) ([]emuSnapshot, error) {
	all, err := emuSnapshots(emu.URL)
	var live []emuSnapshot
	for _, s := range all {
		if !s.Removed && s.State != daytonaemu.StateRemoving {
			live = append(live, s)
		}
	}
	return live, err
}

// servesTemplateRef checks that template_ref and build_ref both name the build recorded, a
// snapshot a sandbox create starts from now, and that it is the template's only live snapshot
// but failed ones (kept with their errorReason until the next build of their inputs).
func servesTemplateRef(emu *daytonaemu.Server, check func(daytonaemu.Served) error) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		attrs := s.RootModule().Resources[resourceName].Primary.Attributes
		ref := attrs["template_ref.value"]
		if !daytonaSnapshotName.MatchString(ref) || attrs["build_ref.value"] != ref || attrs["build_id"] != ref ||
			attrs["template_ref.provider"] != "daytona" {
			return fmt.Errorf("template_ref %q, build_ref %q, build_id %q: want one snapshot name py:inputs-<fingerprint>",
				ref, attrs["build_ref.value"], attrs["build_id"])
		}
		served, ok := emu.ServedSnapshot(ref)
		if !ok {
			return fmt.Errorf("template_ref %s names no active snapshot", ref)
		}
		live, err := liveSnapshots(emu)
		if err != nil {
			return err
		}
		live = slices.DeleteFunc(live, func(s emuSnapshot) bool {
			return s.State == daytonaemu.StateError || s.State == daytonaemu.StateBuildFailed
		})
		if len(live) != 1 {
			return fmt.Errorf("live snapshots %+v, want only %s: the superseded ones are removed", live, ref)
		}
		if check != nil {
			return check(served)
		}
		return nil
	}
}

// gapWatch fails a test when the builder removes a snapshot of template py while no other one
// is active: the moment consumers following template_ref would find nothing to start.
type gapWatch struct {
	url  string
	mu   sync.Mutex
	gaps []string
}

func (g *gapWatch) onRequest(r *http.Request) {
	if r.Method != http.MethodDelete || !strings.HasPrefix(r.URL.Path, daytonaemu.APIPath+"/snapshots/") {
		return
	}
	id := strings.TrimPrefix(r.URL.Path, daytonaemu.APIPath+"/snapshots/")
	all, err := emuSnapshots(g.url)
	active := false
	for _, s := range all {
		active = active || (s.ID != id && !s.Removed && s.State == daytonaemu.StateActive)
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if err != nil || !active {
		g.gaps = append(g.gaps, fmt.Sprintf("snapshot %s removed while no other one was active (%v)", id, err))
	}
}

func (g *gapWatch) check(*terraform.State) error {
	g.mu.Lock()
	defer g.mu.Unlock()
	if len(g.gaps) > 0 {
		return fmt.Errorf("%s", strings.Join(g.gaps, "; "))
	}
	return nil
}

// daytonaRequests counts the requests the provider made by method and path (ids as {id}).
func daytonaRequests(emu *daytonaemu.Server, key string) int { return emu.Stats().Requests[key] }

// TestAccTemplateDaytonaLifecycle: a snapshot built from an image, rebuilt from steps with no
// moment where template_ref names no active snapshot (the old one is removed only once the new
// one is active), imported back, destroyed; template_ref and build_ref name the snapshot.
func TestAccTemplateDaytonaLifecycle(t *testing.T) {
	watch := &gapWatch{}
	emu := newDaytona(t, daytonaemu.Options{OnRequest: watch.onRequest})
	watch.url = emu.URL
	var first string
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: protoV6ProviderFactories,
		CheckDestroy: func(*terraform.State) error {
			live, err := liveSnapshots(emu)
			if err == nil && len(live) > 0 {
				err = fmt.Errorf("destroy left snapshots %+v", live)
			}
			return err
		},
		Steps: []resource.TestStep{
			{
				Config: daytonaConfig(emu, fmt.Sprintf(`
  image     = %q
  start_cmd = "sleep infinity"
`, testDaytonaImage)),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectUnknownValue(resourceName, tfjsonpath.New("template_ref")),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(resourceName, tfjsonpath.New("status"), knownvalue.StringExact("SUCCESS")),
				},
				Check: resource.ComposeTestCheckFunc(servesTemplateRef(emu, func(s daytonaemu.Served) error {
					first = s.Name
					if s.ImageName == "" || s.Dockerfile != "" {
						return fmt.Errorf("snapshot %s built from image %q, dockerfile %q: want the image pulled", s.Name, s.ImageName, s.Dockerfile)
					}
					return nil
				}), watch.check),
			},
			{
				Config: daytonaConfig(emu, fmt.Sprintf(`
  image     = %q
  start_cmd = "sleep infinity"
  packages  = ["requests==2.32.3"]
  steps = [
    { run = { command = "echo built > /etc/built-by-steps" } },
  ]
`, testDaytonaImage)),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(resourceName, plancheck.ResourceActionUpdate),
					plancheck.ExpectUnknownValue(resourceName, tfjsonpath.New("template_ref")),
				}},
				Check: resource.ComposeTestCheckFunc(servesTemplateRef(emu, func(s daytonaemu.Served) error {
					if s.Name == first || !strings.Contains(s.Dockerfile, "pip install") || !strings.Contains(s.Dockerfile, "built-by-steps") {
						return fmt.Errorf("snapshot %s (first %s) built from dockerfile %q: want a new one with the packages and steps", s.Name, first, s.Dockerfile)
					}
					return nil
				}), watch.check, func(*terraform.State) error {
					if n := daytonaRequests(emu, "DELETE /api/snapshots/{id}"); n != 1 {
						return fmt.Errorf("%d snapshots removed, want the superseded one", n)
					}
					return nil
				}),
			},
			{
				ResourceName:  resourceName,
				ImportState:   true,
				ImportStateId: "daytona/py",
				ImportStateCheck: func(states []*terraform.InstanceState) error {
					live, err := liveSnapshots(emu)
					if err != nil || len(live) != 1 {
						return fmt.Errorf("live snapshots %+v (%v)", live, err)
					}
					for _, attr := range []string{"template_ref.value", "build_ref.value", "build_id"} {
						if got := states[0].Attributes[attr]; got != live[0].Name {
							return fmt.Errorf("imported %s = %q, want the snapshot served, %s", attr, got, live[0].Name)
						}
					}
					return nil
				},
			},
		},
	})
}

// TestAccTemplateDaytonaConflictAdopted: a snapshot of the same name created by another run
// between the builder's look and its create (the server answers 409) is adopted: the apply
// succeeds on it and nobody sees the 409.
func TestAccTemplateDaytonaConflictAdopted(t *testing.T) {
	var emu *daytonaemu.Server
	var once sync.Once
	emu = newDaytona(t, daytonaemu.Options{OnRequest: func(r *http.Request) {
		if r.Method != http.MethodPost || r.URL.Path != daytonaemu.APIPath+"/snapshots" || r.Header.Get(testProbe) != "" {
			return
		}
		body, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(body))
		once.Do(func() { // another run creates the same snapshot first
			req, _ := http.NewRequest(http.MethodPost, emu.APIURL()+"/snapshots", bytes.NewReader(body))
			req.Header.Set("Authorization", "Bearer "+testDaytonaAPIKey)
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set(testProbe, "1")
			if resp, err := http.DefaultClient.Do(req); err == nil {
				_ = resp.Body.Close()
			}
		})
	}})
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: protoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config: daytonaConfig(emu, fmt.Sprintf(`  image = %q`, testDaytonaImage)),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(resourceName, tfjsonpath.New("status"), knownvalue.StringExact("SUCCESS")),
			},
			Check: resource.ComposeTestCheckFunc(servesTemplateRef(emu, nil), func(*terraform.State) error {
				if n := daytonaRequests(emu, "POST /api/snapshots"); n != 2 {
					return fmt.Errorf("%d snapshot creates, want 2: the other run's and the provider's, answered 409", n)
				}
				return nil
			}),
		}},
	})
}

// TestAccTemplateDaytonaInactiveActivated: a refresh that finds the snapshot inactive (unused for
// 14 days) plans an activation, visible as an update of status to SKIPPED, not a rebuild; the
// apply activates it, builds nothing and keeps template_ref. Within the server's cooldown after a
// deactivation, the apply fails saying how long to wait, and keeps the record inactive.
func TestAccTemplateDaytonaInactiveActivated(t *testing.T) {
	emu := newDaytona(t, daytonaemu.Options{})
	config := daytonaConfig(emu, fmt.Sprintf(`  image = %q`, testDaytonaImage))
	var ref string
	expire := func() {
		live, err := liveSnapshots(emu)
		if err != nil || len(live) != 1 {
			t.Fatalf("live snapshots %+v (%v)", live, err)
		}
		ref = live[0].Name
		if err := emu.Expire(ref); err != nil {
			t.Fatal(err)
		}
	}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: protoV6ProviderFactories,
		Steps: []resource.TestStep{
			{Config: config},
			{
				PreConfig: func() {
					// Deactivated longer ago than the server's cooldown, on the emulator's clock and on
					// the provider's (the real one, which the builder waits out the cooldown by).
					emu.AdvanceClock(-daytona.ActivationCooldown - time.Minute)
					expire()
					emu.AdvanceClock(daytona.ActivationCooldown + time.Minute)
				},
				Config: config,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(resourceName, plancheck.ResourceActionUpdate),
					plancheck.ExpectKnownValue(resourceName, tfjsonpath.New("status"), knownvalue.StringExact("SKIPPED")),
					plancheck.ExpectKnownValue(resourceName, tfjsonpath.New("template_ref").AtMapKey("value"), knownvalue.NotNull()),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(resourceName, tfjsonpath.New("detail"), knownvalue.StringRegexp(regexp.MustCompile(`activated it, nothing was built`))),
				},
				Check: resource.ComposeTestCheckFunc(servesTemplateRef(emu, nil), func(s *terraform.State) error {
					if got := s.RootModule().Resources[resourceName].Primary.Attributes["template_ref.value"]; got != ref {
						return fmt.Errorf("template_ref %s after the activation, want %s", got, ref)
					}
					if n, a := daytonaRequests(emu, "POST /api/snapshots"), daytonaRequests(emu, "POST /api/snapshots/{id}/activate"); n != 1 || a != 1 {
						return fmt.Errorf("%d snapshot creates and %d activations, want 1 and 1", n, a)
					}
					return nil
				}),
			},
			{
				PreConfig: expire, // again, now within the cooldown the deactivation starts
				Config: daytonaConfig(emu, fmt.Sprintf(`
  image    = %q
  timeouts = { update = "2s" }
`, testDaytonaImage)),
				ExpectError: regexp.MustCompile(`(?s)Could not activate sandbox template.*refuses to\s+activate it for \d+m.*run apply again`),
			},
			{
				RefreshState:       true,
				ExpectNonEmptyPlan: true, // the activation it still plans
				Check:              resource.TestCheckResourceAttr(resourceName, "status", "INACTIVE"),
			},
			{
				// Someone activates it outside Terraform once the cooldown is over: the next refresh
				// records it usable again and plans nothing.
				PreConfig: func() {
					emu.AdvanceClock(daytona.ActivationCooldown + time.Minute)
					if status := activateOutside(t, emu, ref); status != http.StatusOK {
						t.Fatalf("activating %s through the API: %d", ref, status)
					}
				},
				Config: config,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectEmptyPlan(),
				}},
				Check: resource.ComposeTestCheckFunc(resource.TestCheckResourceAttr(resourceName, "status", "SKIPPED"),
					servesTemplateRef(emu, nil)),
			},
		},
	})
}

// activateOutside activates snapshot name through the API, as a user would, and returns the status.
func activateOutside(t *testing.T, emu *daytonaemu.Server, name string) int {
	t.Helper()
	live, err := liveSnapshots(emu)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range live {
		if s.Name != name {
			continue
		}
		req, _ := http.NewRequest(http.MethodPost, emu.APIURL()+"/snapshots/"+s.ID+"/activate", nil)
		req.Header.Set("Authorization", "Bearer "+testDaytonaAPIKey)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		_ = resp.Body.Close()
		for range 10 { // the emulated snapshot manager moves it on as the API reads it: wait until it is active
			if _, active := emu.ServedSnapshot(name); active {
				break
			}
			get, _ := http.NewRequest(http.MethodGet, emu.APIURL()+"/snapshots/"+s.ID, nil)
			get.Header.Set("Authorization", "Bearer "+testDaytonaAPIKey)
			if got, err := http.DefaultClient.Do(get); err == nil {
				_ = got.Body.Close()
			}
		}
		return resp.StatusCode
	}
	return http.StatusNotFound
}

// TestAccTemplateDaytonaFailedBuild: a rebuild whose step fails is reported and recorded with
// its stage and the server's errorReason, while template_ref keeps naming the snapshot served.
func TestAccTemplateDaytonaFailedBuild(t *testing.T) {
	emu := newDaytona(t, daytonaemu.Options{})
	broken := daytonaConfig(emu, fmt.Sprintf(`
  image = %q
  steps = [{ run = { command = "echo about to fail && exit 3" } }]
`, testDaytonaImage))
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: protoV6ProviderFactories,
		Steps: []resource.TestStep{
			{Config: daytonaConfig(emu, fmt.Sprintf(`  image = %q`, testDaytonaImage))},
			{
				Config:      broken,
				ExpectError: regexp.MustCompile(`(?s)Template build failed at stage TEMPLATE_BUILD.*(error|build_failed): .*about to fail`),
			},
			{
				RefreshState:       true,
				ExpectNonEmptyPlan: true, // the retry
				Check: resource.ComposeTestCheckFunc(
					resource.TestCheckResourceAttr(resourceName, "status", "FAILED"),
					resource.TestCheckResourceAttr(resourceName, "stage", "TEMPLATE_BUILD"),
					resource.TestMatchResourceAttr(resourceName, "detail", regexp.MustCompile(`(error|build_failed): `)),
					servesTemplateRef(emu, nil),
				),
			},
		},
	})
}

// TestAccTemplateDaytonaTagsRefused: Daytona snapshots have no tags: setting them fails the plan
// on the attribute.
func TestAccTemplateDaytonaTagsRefused(t *testing.T) {
	emu := newDaytona(t, daytonaemu.Options{})
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: protoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config: daytonaConfig(emu, fmt.Sprintf(`
  image = %q
  tags  = ["v1"]
`, testDaytonaImage)),
			PlanOnly:    true,
			ExpectError: regexp.MustCompile(`(?s)Invalid tags.*tags\s+=\s+\["v1"\].*the Daytona backend has no\s+build tags`),
		}},
	})
	if n := len(emu.Requests()); n != 0 {
		t.Errorf("%d requests for a plan refused", n)
	}
}

// TestAccTemplateDaytonaSizing: cpu_count, memory_mb and disk_gb size the snapshot in Daytona's
// units (memory in whole GB), disk_gb joins the snapshot's name (a new snapshot is built), a
// disk_gb below 1 fails the plan on the attribute, and a GPU the organization has no quota for
// fails the build with the server's reason.
func TestAccTemplateDaytonaSizing(t *testing.T) {
	emu := newDaytona(t, daytonaemu.Options{})
	sized := func(extra string) string {
		return daytonaConfig(emu, fmt.Sprintf(`
  image     = %q
  cpu_count = 2
  memory_mb = 4096
%s`, testDaytonaImage, extra))
	}
	var unsized string
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: protoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config: sized(""),
				Check: servesTemplateRef(emu, func(s daytonaemu.Served) error {
					unsized = s.Name
					return nil
				}),
			},
			{
				Config: sized("  disk_gb = 5"),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(resourceName, plancheck.ResourceActionUpdate),
				}},
				Check: servesTemplateRef(emu, func(s daytonaemu.Served) error {
					if s.Name == unsized || s.CPU != 2 || s.Mem != 4 || s.Disk != 5 {
						return fmt.Errorf("snapshot %s (before %s) sized cpu %v, mem %vGB, disk %vGB: want a new one of 2, 4 and 5", s.Name, unsized, s.CPU, s.Mem, s.Disk)
					}
					return nil
				}),
			},
			{
				Config:      sized("  disk_gb = 0"),
				PlanOnly:    true,
				ExpectError: regexp.MustCompile(`(?s)Invalid Attribute Value.*disk_gb.*at least 1`),
			},
			{
				Config:      sized("  disk_gb = 5\n  gpu_count = 1"),
				ExpectError: regexp.MustCompile(`(?s)Template build failed at stage TEMPLATE_CREATE.*GPU quota exceeded`),
			},
		},
	})
}

// TestAccTemplateDaytonaDataSource: the data source's template_ref is the snapshot the template
// serves, as the resource's is.
func TestAccTemplateDaytonaDataSource(t *testing.T) {
	emu := newDaytona(t, daytonaemu.Options{})
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: protoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config: daytonaConfig(emu, fmt.Sprintf(`  image = %q`, testDaytonaImage)) + `
data "sandbox_template" "py" {
  backend     = "daytona"
  template_id = sandbox_template.py.template_id
  depends_on  = [sandbox_template.py]
}
`,
			Check: resource.ComposeTestCheckFunc(servesTemplateRef(emu, nil),
				resource.TestCheckResourceAttrPair("data.sandbox_template.py", "template_ref.value", resourceName, "template_ref.value")),
		}},
	})
}
