package e2bemu_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/emulator/e2bemu"
)

// TestRequestsAreRecordedWithTheKeyRedacted: method, path, query, headers and the exact body are
// kept; the API key is not.
func TestRequestsAreRecordedWithTheKeyRedacted(t *testing.T) {
	emu := e2bemu.NewTestServer(t, e2bemu.Options{APIKey: apiKey})
	c := newCaller(t, emu)
	b := c.create(map[string]any{"name": "py", "cpuCount": 4})
	c.call("GET", b.statusPath()+"?logsOffset=3", nil)
	c.key = "a-wrong-key-that-must-not-be-kept"
	c.call("GET", "/templates", nil)

	reqs := emu.Requests()
	if len(reqs) != 3 {
		t.Fatalf("recorded %d requests, want 3", len(reqs))
	}
	var sent map[string]any
	if err := json.Unmarshal(reqs[0].Body, &sent); err != nil || reqs[0].Method != "POST" || reqs[0].Path != "/v3/templates" || sent["cpuCount"] != float64(4) {
		t.Errorf("create recorded as %s %s %s", reqs[0].Method, reqs[0].Path, reqs[0].Body)
	}
	if reqs[0].Header.Get("Content-Type") != "application/json" {
		t.Errorf("headers were not kept: %v", reqs[0].Header)
	}
	if reqs[1].Query.Get("logsOffset") != "3" || reqs[1].Path != b.statusPath() {
		t.Errorf("status poll recorded as %s ?%v", reqs[1].Path, reqs[1].Query)
	}
	for _, r := range reqs {
		if got := r.Header.Get("X-API-Key"); got != "[REDACTED]" {
			t.Errorf("%s %s kept X-API-Key %q, want it redacted", r.Method, r.Path, got)
		}
		if strings.Contains(string(r.Body), apiKey) {
			t.Errorf("the API key leaked into a recorded body")
		}
	}
	if n := emu.CountRequests("", "/templates"); n != 2 {
		t.Errorf("CountRequests(any, /templates) = %d, want 2", n)
	}
	if n := emu.CountRequests("POST", "/v3/"); n != 1 {
		t.Errorf("CountRequests(POST, /v3/) = %d, want 1", n)
	}
}

// TestBuildStartsRecordEachRegistryKind: tests can assert exactly which credentials were sent.
func TestBuildStartsRecordEachRegistryKind(t *testing.T) {
	emu := e2bemu.NewTestServer(t, e2bemu.Options{APIKey: apiKey})
	c := newCaller(t, emu)
	registries := map[string]map[string]any{
		"plain":   nil,
		"general": {"type": "registry", "username": "robot", "password": "hunter2"},
		"ecr":     {"type": "aws", "awsAccessKeyId": "AKIDEXAMPLE", "awsSecretAccessKey": "aws-secret", "awsRegion": "eu-west-1"},
		"gar":     {"type": "gcp", "serviceAccountJson": `{"type":"service_account"}`},
	}
	for _, name := range []string{"plain", "general", "ecr", "gar"} {
		body := map[string]any{"fromImage": "img/" + name, "steps": []any{map[string]any{"type": "RUN", "args": []string{"true"}, "force": true}},
			"startCmd": "start", "readyCmd": "ready", "force": true}
		if reg := registries[name]; reg != nil {
			body["fromImageRegistry"] = reg
		}
		c.start(c.create(map[string]any{"name": name}), body)
	}
	starts := emu.BuildStarts()
	if len(starts) != 4 {
		t.Fatalf("build starts = %d, want 4", len(starts))
	}
	want := []struct {
		name, kind string
		registry   *e2bemu.FromImageRegistry
	}{
		{"plain", "", nil},
		{"general", "registry", &e2bemu.FromImageRegistry{Type: "registry", Username: "robot", Password: "hunter2"}},
		{"ecr", "aws", &e2bemu.FromImageRegistry{Type: "aws", AWSAccessKeyID: "AKIDEXAMPLE", AWSSecretAccessKey: "aws-secret", AWSRegion: "eu-west-1"}},
		{"gar", "gcp", &e2bemu.FromImageRegistry{Type: "gcp", ServiceAccountJSON: `{"type":"service_account"}`}},
	}
	for i, w := range want {
		s := starts[i]
		info, _ := emu.Template(w.name)
		if s.Name != w.name || s.RegistryType != w.kind || s.TemplateID != info.TemplateID || s.BuildID == "" {
			t.Errorf("start %d = %+v, want %s with registry kind %q", i, s, w.name, w.kind)
		}
		if (s.Body.FromImageRegistry == nil) != (w.registry == nil) || (w.registry != nil && *s.Body.FromImageRegistry != *w.registry) {
			t.Errorf("start %d registry = %+v, want %+v", i, s.Body.FromImageRegistry, w.registry)
		}
		body := s.Body
		if *body.FromImage != "img/"+w.name || *body.StartCmd != "start" || *body.ReadyCmd != "ready" || !*body.Force ||
			len(body.Steps) != 1 || body.Steps[0].Type != "RUN" || !body.Steps[0].Force {
			t.Errorf("start %d body = %+v", i, body)
		}
	}
}

// TestTemplateInspection covers Template, SeedReadyTemplate and DeleteTemplateOutOfBand.
func TestTemplateInspection(t *testing.T) {
	emu := e2bemu.NewTestServer(t, e2bemu.Options{APIKey: apiKey})
	emu.SeedReadyTemplate("seeded")
	info, ok := emu.Template("seeded")
	if !ok || info.BuildStatus != "ready" || len(info.ReadyTags) != 1 || info.CPUCount == 0 || info.MemoryMB == 0 {
		t.Fatalf("seeded template = %+v, %v; want ready with a tag and sizing", info, ok)
	}
	if byID, _ := emu.Template(info.TemplateID); byID.TemplateID != info.TemplateID || byID.Names[0] != "emulator/seeded" {
		t.Errorf("Template by id = %+v", byID)
	}
	c := newCaller(t, emu)
	if status, _, alias, _ := c.call("GET", "/templates/aliases/seeded", nil); status != 200 || alias["templateID"] != info.TemplateID {
		t.Errorf("a seeded template's alias = %d %v", status, alias)
	}
	emu.SeedReadyTemplate("seeded")
	if again, _ := emu.Template("seeded"); again.TemplateID != info.TemplateID {
		t.Errorf("seeding twice made a second template: %+v", again)
	}
	b := c.create(map[string]any{"name": "py", "cpuCount": 4, "memoryMB": 2048})
	if tpl, _ := emu.Template("py"); tpl.CPUCount != 4 || tpl.MemoryMB != 2048 || tpl.BuildStatus != "waiting" || tpl.TemplateID != b.templateID {
		t.Errorf("created template = %+v", tpl)
	}
	if tpl, _ := emu.Template("py"); len(tpl.Tags) != 1 || len(tpl.ReadyTags) != 0 {
		t.Errorf("a template whose build waits = %+v, want its tag assigned but not ready", tpl)
	}
	if !emu.DeleteTemplateOutOfBand("py") || emu.DeleteTemplateOutOfBand("py") {
		t.Error("an out-of-band delete removes the template once")
	}
	if status, _, _, _ := c.call("GET", b.statusPath(), nil); status != 400 {
		t.Errorf("status of a deleted template's build = %d, want 400 (Build not found)", status)
	}
	if _, ok := emu.Template("nope"); ok {
		t.Error("Template of an unknown name reported ok")
	}
}
