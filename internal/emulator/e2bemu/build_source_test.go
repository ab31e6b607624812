package e2bemu_test

import (
	"net/http"
	"testing"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/emulator/e2bemu"
)

// failedAtStart starts a new build of name with body, wants the 202, and returns the status the
// build is in at once: E2B fails a build whose source cannot be used before any builder runs.
func failedAtStart(t *testing.T, c caller, name string, body map[string]any) map[string]any {
	t.Helper()
	b := c.create(map[string]any{"name": name})
	c.start(b, body)
	return c.status(b)
}

func reasonOf(status map[string]any) (message, step string) {
	reason, _ := status["reason"].(map[string]any)
	message, _ = reason["message"].(string)
	step, _ = reason["step"].(string)
	return message, step
}

// TestBaseTemplateThatCannotBeUsedFailsAtBase: template-manager/create_template.go answers the
// start 202 and fails the build at step base when fromTemplate names a missing template, one with
// no ready build carrying the tag, or another team's private template; a usable one builds.
func TestBaseTemplateThatCannotBeUsedFailsAtBase(t *testing.T) {
	emu := e2bemu.NewTestServer(t, e2bemu.Options{APIKey: apiKey, TeamSlug: "acme"})
	c := newCaller(t, emu)
	emu.SeedFailedTemplate("half", "no space left on device")
	emu.SeedForeignTemplate("theirs", false)
	emu.SeedForeignTemplate("shared", true)
	emu.SeedReadyTemplate("mine")
	for _, tt := range []struct{ from, want string }{
		{"missing", "template 'missing' not found"},
		{"other/missing", "template 'other/missing' not found"},
		{"half", "tag 'default' does not exist for template 'acme/half'"},
		{"mine:v2", "tag 'v2' does not exist for template 'acme/mine'"},
		{"theirs", "template 'theirs' not found"},
		{"Not Valid!", "invalid template reference: invalid template ID: Not Valid!"},
		{"code-interpreter-v1:v9", "tag 'v9' does not exist for template 'code-interpreter-v1'"},
	} {
		got := failedAtStart(t, c, "from-"+itoa(len(tt.from)), map[string]any{"fromTemplate": tt.from})
		message, step := reasonOf(got)
		if got["status"] != "error" || message != tt.want || step != "base" {
			t.Errorf("fromTemplate %q: %v, want error %q at step base", tt.from, got, tt.want)
		}
		if logs, _ := got["logEntries"].([]any); len(logs) != 0 {
			t.Errorf("fromTemplate %q logged %v: no builder ran", tt.from, logs)
		}
	}
	for _, from := range []string{"mine", "acme/mine", "shared", "code-interpreter-v1", "base"} {
		b := c.create(map[string]any{"name": "ok"})
		c.start(b, map[string]any{"fromTemplate": from})
		if got := c.status(b); got["status"] != "ready" {
			t.Errorf("fromTemplate %q: %v, want ready", from, got)
		}
	}
}

// TestSourceRefusedBySetTemplateSource: two sources, or none (an empty fromTemplate counts as
// none), fail the claimed build and answer 500 (create_template.go, template_start_build_v2.go);
// an empty fromImage is a v1 build, whose image E2B's own registry does not hold.
func TestSourceRefusedBySetTemplateSource(t *testing.T) {
	emu := e2bemu.NewTestServer(t, e2bemu.Options{APIKey: apiKey})
	c := newCaller(t, emu)
	for _, tt := range []struct {
		body map[string]any
		want string
	}{
		{map[string]any{}, "must specify either fromImage or fromTemplate"},
		{map[string]any{"fromTemplate": ""}, "must specify either fromImage or fromTemplate"},
		{map[string]any{"fromImage": "python:3.12", "fromTemplate": "base"}, "cannot specify both fromImage and fromTemplate"},
	} {
		b := c.create(map[string]any{"name": "src"})
		status, _, out, _ := c.call("POST", b.startPath(), tt.body)
		if want := "Error when starting template build: failed to set template source: " + tt.want; status != http.StatusInternalServerError || out["message"] != want {
			t.Errorf("start %v = %d %v, want 500 %q", tt.body, status, out, want)
		}
		if got, _ := reasonOf(c.status(b)); got != "error when building env: failed to set template source: "+tt.want {
			t.Errorf("start %v left the build with reason %q", tt.body, got)
		}
	}
	got := failedAtStart(t, c, "empty", map[string]any{"fromImage": ""})
	if message, step := reasonOf(got); got["status"] != "error" || message != "failed to pull build image from registry" || step != "base" {
		t.Errorf(`fromImage "": %v, want an error at step base`, got)
	}
}

// TestPrivateRegistryPulls: the catalogue's private registry answers a pull as a registry does,
// and the build fails at base with the orchestrator's words for the registry's error code.
func TestPrivateRegistryPulls(t *testing.T) {
	emu := e2bemu.NewTestServer(t, e2bemu.Options{APIKey: apiKey})
	c := newCaller(t, emu)
	login := map[string]any{"type": "registry", "username": e2bemu.PrivateRegistryUser, "password": e2bemu.PrivateRegistryPassword}
	wrong := map[string]any{"type": "registry", "username": e2bemu.PrivateRegistryUser, "password": "guess"}
	for _, tt := range []struct {
		image string
		login map[string]any
		want  string
	}{
		{"registry.test/team/app:1", nil, "access denied to 'registry.test/team/app:1': authentication required or insufficient permissions"},
		{"registry.test/team/app:1", wrong, "access denied to 'registry.test/team/app:1': authentication required or insufficient permissions"},
		{"registry.test/team/gone:1", wrong, "access denied to 'registry.test/team/gone:1': authentication required or insufficient permissions"},
		{"registry.test/team/gone:1", login, "repository 'registry.test/team/gone:1' not found: verify the image name is correct"},
		{"registry.test/team/app:2", login, "image 'registry.test/team/app:2' not found: the image or tag does not exist in the registry"},
		{"registry.test/team/app:1", login, ""},
		{"registry.test/team/app", login, ""},
		{"registry.test/team/app@sha256:0123", login, ""},
		{"registry.example.com/team/app:9", nil, ""}, // not modelled: pulls
	} {
		body := map[string]any{"fromImage": tt.image}
		if tt.login != nil {
			body["fromImageRegistry"] = tt.login
		}
		got := failedAtStart(t, c, "pull", body)
		message, step := reasonOf(got)
		switch {
		case tt.want == "" && got["status"] != "ready":
			t.Errorf("%s with %v: %v, want ready", tt.image, tt.login, got)
		case tt.want != "" && (got["status"] != "error" || message != tt.want || step != "base"):
			t.Errorf("%s with %v: %v, want error %q at base", tt.image, tt.login, got, tt.want)
		}
	}
}
