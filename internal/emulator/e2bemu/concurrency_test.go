package e2bemu_test

import (
	"fmt"
	"net/http"
	"sync"
	"testing"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/emulator/e2bemu"
)

// TestConcurrentBuilds: parallel builds of several templates (as Terraform runs resources) keep
// one template per name, a distinct build id each, and all end ready. Each build has its own tag:
// builds of one name with a shared tag supersede each other (TestRegistrationSupersedes). Run
// with -race.
func TestConcurrentBuilds(t *testing.T) {
	emu := e2bemu.NewTestServer(t, e2bemu.Options{APIKey: apiKey})
	const names, perName = 4, 5
	type result struct {
		name string
		b    build
		err  string
	}
	results := make(chan result, names*perName)
	var wg sync.WaitGroup
	for n := range names {
		for i := range perName {
			wg.Go(func() {
				name := fmt.Sprintf("tpl-%d", n)
				c := newCaller(t, emu)
				status, _, out, _ := c.call("POST", "/v3/templates", map[string]any{"name": fmt.Sprintf("%s:v%d", name, i)})
				if status != http.StatusAccepted {
					results <- result{name: name, err: fmt.Sprintf("create = %d", status)}
					return
				}
				templateID, okTemplate := out["templateID"].(string)
				buildID, okBuild := out["buildID"].(string)
				if !okTemplate || !okBuild {
					results <- result{name: name, err: fmt.Sprintf("create = %v, want string ids", out)}
					return
				}
				b := build{templateID: templateID, buildID: buildID}
				if status, _, _, _ := c.call("POST", b.startPath(), fromPython); status != http.StatusAccepted {
					results <- result{name: name, err: fmt.Sprintf("start = %d", status)}
					return
				}
				_, _, info, _ := c.call("GET", b.statusPath(), nil)
				if info["status"] != "ready" {
					results <- result{name: name, err: fmt.Sprintf("status = %v", info["status"])}
					return
				}
				c.call("GET", "/templates", nil)
				results <- result{name: name, b: b}
			})
		}
	}
	wg.Wait()
	close(results)
	templateOf, buildIDs := map[string]string{}, map[string]bool{}
	for r := range results {
		if r.err != "" {
			t.Errorf("%s: %s", r.name, r.err)
			continue
		}
		if id, ok := templateOf[r.name]; ok && id != r.b.templateID {
			t.Errorf("%s got two template ids: %s and %s", r.name, id, r.b.templateID)
		}
		templateOf[r.name] = r.b.templateID
		if buildIDs[r.b.buildID] {
			t.Errorf("build id %s handed out twice", r.b.buildID)
		}
		buildIDs[r.b.buildID] = true
	}
	if len(templateOf) != names || len(buildIDs) != names*perName || len(emu.BuildStarts()) != names*perName {
		t.Errorf("%d templates, %d builds, %d starts; want %d, %d, %d", len(templateOf), len(buildIDs), len(emu.BuildStarts()), names, names*perName, names*perName)
	}
}
