package provider

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
	"github.com/hashicorp/terraform-plugin-testing/tfversion"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/emulator/daytonaemu"
)

// TestAccTemplateMovedFromDaytonaSnapshot: a snapshot jwmoss/daytona made, in the state its
// daytona_snapshot wrote, moves to sandbox_template with one `moved` block and the same inputs.
// Its name carries no fingerprint of them, so the plan is an update that rebuilds (the refreshed
// state says why: SUPERSEDED, with its detail), not an input change; the apply builds the
// template's own snapshot and template_ref names it; the old snapshot stays active, so at no
// request of the whole run did consumers of either name lack an active snapshot; the plan after is empty.
func TestAccTemplateMovedFromDaytonaSnapshot(t *testing.T) {
	const old = "py"
	watch := &servedWatch{names: []string{old}}
	emu := newDaytona(t, daytonaemu.Options{OnRequest: watch.onRequest})
	watch.url = emu.URL
	createAsJwmoss(t, emu, old)
	seed := seedMovedState(t, "jwmoss/daytona", "daytona_snapshot.py", map[string]any{
		"id": "4f0c2a53-8c1e-4f43-9d2b-7a1e5c3b9d20", "name": old, "organization_id": "org", "image_name": testDaytonaImage,
		"entrypoint": []string{"/bin/sh", "-c", "sleep infinity"}, "cpu": 1, "gpu": 0, "gpu_type": nil, "gpu_types": nil,
		"memory": 1, "disk": 3, "build_info": nil, "region_id": nil, "region_ids": []string{"us"}, "sandbox_class": nil,
		"state": "active", "ref": nil, "general": false, "size": nil, "created_at": "2026-06-20T10:00:00Z",
		"updated_at": "2026-06-20T10:00:00Z", "error_reason": nil})
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: protoV6ProviderFactories,
		TerraformVersionChecks:   []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_8_0)},
		Steps: []resource.TestStep{{
			PreConfig: func() { seed(nil) },
			Config: movedDaytonaConfig(emu, fmt.Sprintf(`
  image     = %q
  start_cmd = "sleep infinity"
  cpu_count = 1
  memory_mb = 1024
  disk_gb   = 3`, testDaytonaImage)),
			ConfigPlanChecks: resource.ConfigPlanChecks{
				PreApply: []plancheck.PlanCheck{
					movedFrom("daytona_snapshot.py", resourceName),
					plancheck.ExpectResourceAction(resourceName, plancheck.ResourceActionUpdate),
					plancheck.ExpectUnknownValue(resourceName, tfjsonpath.New("template_ref")),
					changes(resourceName, "image", testDaytonaImage, testDaytonaImage), // no input changes: the name is why
					plannedFrom{"status", "SUPERSEDED"},
					plannedFrom{"detail", "carries no fingerprint of the inputs"},
					plannedFrom{"detail", "py is left in place"},
				},
				PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
			},
			Check: resource.ComposeAggregateTestCheckFunc(
				resource.TestCheckResourceAttr(resourceName, "status", "SUCCESS"),
				resource.TestMatchResourceAttr(resourceName, "template_ref.value", daytonaSnapshotName),
				func(s *terraform.State) error {
					ref := s.RootModule().Resources[resourceName].Primary.Attributes["template_ref.value"]
					if _, ok := emu.ServedSnapshot(ref); !ok {
						return fmt.Errorf("template_ref %s names no active snapshot", ref)
					}
					if _, ok := emu.ServedSnapshot(old); !ok {
						return fmt.Errorf("the moved snapshot %s is no longer active: consumers starting from it by name lost it", old)
					}
					if n := daytonaRequests(emu, "DELETE /api/snapshots/{id}"); n != 0 {
						return fmt.Errorf("%d snapshots removed, want none", n)
					}
					return nil
				},
				watch.check,
			),
		}},
	})
}

// TestAccTemplateMovedFromDaytonaSnapshotNamedByItsInputs: a daytona_snapshot whose name is one
// this provider gives a build (here: the one it built in the first step, then handed to
// daytona_snapshot's state) is adopted: the plan adopts the configured inputs in place, nothing is
// built, template_ref stays the snapshot's name, and the plan after is empty.
func TestAccTemplateMovedFromDaytonaSnapshotNamedByItsInputs(t *testing.T) {
	emu := newDaytona(t, daytonaemu.Options{})
	inputs := fmt.Sprintf(`
  image     = %q
  start_cmd = "sleep infinity"`, testDaytonaImage)
	var built string
	seed := seedMovedState(t, "jwmoss/daytona", "daytona_snapshot.py", map[string]any{})
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: protoV6ProviderFactories,
		TerraformVersionChecks:   []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_8_0)},
		Steps: []resource.TestStep{
			{
				Config: daytonaConfig(emu, inputs),
				Check: func(s *terraform.State) error {
					built = s.RootModule().Resources[resourceName].Primary.Attributes["template_ref.value"]
					return nil
				},
			},
			{
				PreConfig: func() { seed(map[string]any{"name": built, "image_name": testDaytonaImage, "state": "active"}) },
				Config:    movedDaytonaConfig(emu, inputs),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{
						movedFrom("daytona_snapshot.py", resourceName),
						plancheck.ExpectResourceAction(resourceName, plancheck.ResourceActionUpdate), // the inputs adopted
						plancheck.ExpectKnownValue(resourceName, tfjsonpath.New("status"), knownvalue.StringExact("SKIPPED")),
						planCheckFunc(func(req plancheck.CheckPlanRequest) error { // known: nothing is built
							for _, rc := range req.Plan.ResourceChanges {
								if ref, _ := rc.Change.After.(map[string]any)["template_ref"].(map[string]any); rc.Address == resourceName && ref["value"] != built {
									return fmt.Errorf("planned template_ref %v, want the adopted snapshot %s", ref, built)
								}
							}
							return nil
						}),
					},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				Check: func(*terraform.State) error {
					if n := daytonaRequests(emu, "POST /api/snapshots"); n != 1 {
						return fmt.Errorf("%d snapshots created, want only the first step's", n)
					}
					return nil
				},
			},
		},
	})
}

// planCheckFunc is a plan check written as a function.
type planCheckFunc func(plancheck.CheckPlanRequest) error

func (f planCheckFunc) CheckPlan(_ context.Context, req plancheck.CheckPlanRequest, resp *plancheck.CheckPlanResponse) {
	resp.Error = f(req)
}

// TestAccTemplateMovedFromDaytonaSnapshotGone: a daytona_snapshot whose snapshot no longer
// serves (deleted, or inactive: unused for 14 days) is found gone by the refresh before the plan:
// the plan creates the template, and the apply builds its own snapshot.
func TestAccTemplateMovedFromDaytonaSnapshotGone(t *testing.T) {
	for _, inactive := range []bool{false, true} {
		t.Run(map[bool]string{false: "deleted", true: "inactive"}[inactive], func(t *testing.T) {
			emu := newDaytona(t, daytonaemu.Options{})
			if inactive {
				createAsJwmoss(t, emu, "py")
				if err := emu.Expire("py"); err != nil {
					t.Fatal(err)
				}
			}
			seed := seedMovedState(t, "jwmoss/daytona", "daytona_snapshot.py", map[string]any{
				"id": "4f0c2a53-8c1e-4f43-9d2b-7a1e5c3b9d20", "name": "py", "image_name": testDaytonaImage, "state": "active"})
			resource.Test(t, resource.TestCase{
				ProtoV6ProviderFactories: protoV6ProviderFactories,
				TerraformVersionChecks:   []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_8_0)},
				Steps: []resource.TestStep{{
					PreConfig: func() { seed(nil) },
					Config:    movedDaytonaConfig(emu, fmt.Sprintf(`  image = %q`, testDaytonaImage)),
					ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction(resourceName, plancheck.ResourceActionCreate),
					}},
					Check: resource.ComposeAggregateTestCheckFunc(
						resource.TestCheckResourceAttr(resourceName, "status", "SUCCESS"),
						resource.TestMatchResourceAttr(resourceName, "template_ref.value", daytonaSnapshotName),
					),
				}},
			})
		})
	}
}

// servedWatch fails a test when, at any request the provider makes, one of names is not the name
// of an active snapshot: a consumer starting a sandbox from it then would find nothing to start.
type servedWatch struct {
	url   string
	names []string
	mu    sync.Mutex
	gaps  []string
}

func (w *servedWatch) onRequest(r *http.Request) {
	if r.Header.Get(testProbe) != "" {
		return // the test's own setup
	}
	for _, name := range w.names {
		resp, err := http.Get(w.url + daytonaemu.ControlPath + "served/" + name)
		if err == nil {
			_ = resp.Body.Close()
		}
		if err != nil || resp.StatusCode != http.StatusOK {
			w.mu.Lock()
			w.gaps = append(w.gaps, fmt.Sprintf("%s %s: snapshot %s not active (%v)", r.Method, r.URL.Path, name, err))
			w.mu.Unlock()
		}
	}
}

func (w *servedWatch) check(*terraform.State) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if len(w.gaps) > 0 {
		return fmt.Errorf("%s", strings.Join(w.gaps, "; "))
	}
	return nil
}

// createAsJwmoss makes the request jwmoss/daytona's daytona_snapshot create makes (POST /snapshots
// with imageName, entrypoint and sizes), then reads the snapshot until it is active, as its users
// do before starting sandboxes from it.
func createAsJwmoss(t *testing.T, emu *daytonaemu.Server, name string) {
	t.Helper()
	body, _ := json.Marshal(map[string]any{"name": name, "imageName": testDaytonaImage,
		"entrypoint": []string{"/bin/sh", "-c", "sleep infinity"}, "cpu": 1, "memory": 1, "disk": 3})
	daytonaCall(t, emu, http.MethodPost, "/snapshots", body, nil)
	for state := ""; state != daytonaemu.StateActive; {
		var s struct{ State string }
		daytonaCall(t, emu, http.MethodGet, "/snapshots/"+name, nil, &s)
		if state = s.State; state == daytonaemu.StateError || state == daytonaemu.StateBuildFailed {
			t.Fatalf("snapshot %s: %s", name, state)
		}
	}
}

func daytonaCall(t *testing.T, emu *daytonaemu.Server, method, path string, body []byte, out any) {
	t.Helper()
	req, err := http.NewRequestWithContext(context.Background(), method, emu.APIURL()+path, bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+testDaytonaAPIKey)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set(testProbe, "1")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = resp.Body.Close() }()
	if resp.StatusCode/100 != 2 {
		t.Fatalf("%s %s: %s", method, path, resp.Status)
	}
	if out != nil {
		if err := json.NewDecoder(resp.Body).Decode(out); err != nil {
			t.Fatalf("%s %s: %v", method, path, err)
		}
	}
}

// movedDaytonaConfig is the configuration that takes daytona_snapshot.py over.
func movedDaytonaConfig(emu *daytonaemu.Server, inputs string) string {
	return daytonaConfig(emu, inputs) + `
moved {
  from = daytona_snapshot.py
  to   = sandbox_template.py
}
`
}

// plannedFrom checks the state the plan starts from (the moved state, refreshed): its attribute
// holds want.
type plannedFrom struct{ attribute, want string }

func (c plannedFrom) CheckPlan(_ context.Context, req plancheck.CheckPlanRequest, resp *plancheck.CheckPlanResponse) {
	for _, rc := range req.Plan.ResourceChanges {
		if rc.Address != resourceName {
			continue
		}
		before, _ := rc.Change.Before.(map[string]any)
		if got, _ := before[c.attribute].(string); !strings.Contains(got, c.want) {
			resp.Error = fmt.Errorf("%s.%s before the plan: %q, want it to hold %q", resourceName, c.attribute, got, c.want)
		}
		return
	}
	resp.Error = fmt.Errorf("the plan has no change of %s", resourceName)
}

// TestMoveDaytonaSnapshotState: what MoveResourceState makes of daytona_snapshot states, through
// the protocol as the CLI calls it: the snapshot consumers start from as the build and
// template_ref, the inputs its state proves in this provider's terms, adoption only of a name
// this provider gives, and refusals that name what they refuse.
func TestMoveDaytonaSnapshotState(t *testing.T) {
	snapshot := map[string]any{"id": "4f0c2a53-8c1e-4f43-9d2b-7a1e5c3b9d20", "name": "data-science", "image_name": "python:3.12",
		"entrypoint": []string{"/bin/sh", "-c", "python3 -m http.server"}, "cpu": 2, "gpu": 0, "memory": 4, "disk": 10,
		"gpu_types": nil, "build_info": nil, "state": "active", "general": false, "region_ids": []string{"us"}}
	with := func(changes map[string]any) map[string]any {
		out := map[string]any{}
		for k, v := range snapshot {
			out[k] = v
		}
		for k, v := range changes {
			if v == "<absent>" {
				delete(out, k)
				continue
			}
			out[k] = v
		}
		return out
	}
	const ownName = "data-science:inputs-0123456789abcdef"
	runMoveCases(t, "registry.terraform.io/jwmoss/daytona", "daytona_snapshot", []moveCase{
		{name: "a snapshot another tool named", attributes: snapshot, want: map[string]any{"backend": "daytona",
			"template_id": "data-science", "id": "data-science", "image": "python:3.12", "start_cmd": "python3 -m http.server",
			"cpu_count": int64(2), "memory_mb": int64(4096), "disk_gb": int64(10), "gpu_count": nil, "build_id": "data-science",
			"template_ref.value": "data-science", "build_ref.value": "data-science", "status": "SUPERSEDED",
			"image_digest_check": "off", "force_rebuild": false, "keep_remotely": false},
			wantWarnings: []string{"nothing proves it matches", "data-science stays in Daytona"}},
		{name: "536tech/daytona on OpenTofu's registry", provider: "registry.opentofu.org/536tech/daytona", attributes: snapshot,
			want: map[string]any{"template_id": "data-science", "status": "SUPERSEDED"}},
		{name: "a state of 0.5.0, before gpu_types and build_info", attributes: with(map[string]any{"gpu_type": "<absent>",
			"gpu_types": "<absent>", "build_info": "<absent>"}), want: map[string]any{"image": "python:3.12", "status": "SUPERSEDED"}},
		{name: "a tag-like name", attributes: with(map[string]any{"name": "data-science:v1"}),
			want:         map[string]any{"template_id": "data-science", "template_ref.value": "data-science:v1", "build_id": "data-science:v1"},
			wantWarnings: []string{`template_id is "data-science"`}},
		{name: "an entrypoint of its own", attributes: with(map[string]any{"entrypoint": []string{"python3", "-m", "http.server", "8000 1"}}),
			want: map[string]any{"start_cmd": "python3 -m http.server '8000 1'"}},
		{name: "no entrypoint and Daytona's default sizing", attributes: with(map[string]any{"entrypoint": nil, "cpu": 0, "memory": 0, "disk": 0}),
			want: map[string]any{"start_cmd": nil, "cpu_count": nil, "memory_mb": nil, "disk_gb": nil}},
		{name: "a GPU", attributes: with(map[string]any{"gpu": 1}), want: map[string]any{"gpu_count": int64(1)}},
		{name: "built from a Dockerfile", attributes: with(map[string]any{"image_name": "registry:5000/daytona/x:1",
			"build_info": map[string]any{"dockerfile_content": "FROM python:3.12\n", "context_hashes": nil}}),
			want: map[string]any{"image": nil, "status": "SUPERSEDED"}, wantWarnings: []string{"Dockerfile"}},
		{name: "a name this provider gives a build", attributes: with(map[string]any{"name": ownName}),
			want: map[string]any{"template_id": "data-science", "build_id": ownName, "template_ref.value": ownName, "status": "SKIPPED",
				"image": nil, "start_cmd": nil, "cpu_count": nil},
			wantImported: true, wantWarnings: []string{"adopts it without building"}},
		{name: "another schema version", version: 1, attributes: snapshot, wantError: "schema version 1"},
		{name: "another provider's daytona_snapshot", provider: "registry.terraform.io/someone/daytona", attributes: snapshot,
			wantError: "does not include support for the given source resource"},
		{name: "another resource of jwmoss/daytona", typeName: "daytona_sandbox", attributes: snapshot,
			wantError: "does not include support for the given source resource"},
		{name: "a name no template id can be", attributes: with(map[string]any{"name": "Team/Data.Science"}), wantError: "cannot be moved"},
	})
}
