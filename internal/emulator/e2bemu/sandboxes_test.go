package e2bemu_test

import (
	"net/http"
	"testing"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/emulator/e2bemu"
)

// readyBuild registers, starts and finishes one build of py with these tags (none: E2B's default).
func (c caller) readyBuild(tags ...string) build {
	c.t.Helper()
	body := map[string]any{"name": "py"}
	if len(tags) > 0 {
		body["tags"] = tags
	}
	b := c.create(body)
	c.start(b, fromPython)
	if got := c.status(b)["status"]; got != "ready" {
		c.t.Fatalf("build %v = %v, want ready", tags, got)
	}
	return b
}

// sandboxBuild starts a sandbox from ref as E2B's SDKs do (POST /sandboxes) and returns the build it
// started from, as the emulator recorded it.
func (c caller) sandboxBuild(emu *e2bemu.Server, ref string) string {
	c.t.Helper()
	status, _, out, _ := c.call("POST", "/sandboxes", map[string]any{"templateID": ref})
	id, _ := out["sandboxID"].(string)
	if status != http.StatusCreated || id == "" {
		c.t.Fatalf("POST /sandboxes %s = %d %v, want 201 with a sandboxID", ref, status, out)
	}
	info, ok := emu.Sandbox(id)
	if !ok || info.TemplateID != out["templateID"] {
		c.t.Fatalf("sandbox %s = %+v, %v; want it recorded on template %v", id, info, ok, out["templateID"])
	}
	return info.BuildID
}

// TestSandboxCreateResolvesNameTag: a sandbox starts from the build its reference resolves to
// (handlers/sandbox_create.go): the plain name is default's newest ready build, name:tag the tag's,
// name:<build id> exactly that build; a build registered with other tags (a candidate) changes
// nothing for the plain name. A reference to no ready build is E2B's 404.
func TestSandboxCreateResolvesNameTag(t *testing.T) {
	emu, _ := e2bemu.NewContractTestServer(t, e2bemu.Options{APIKey: apiKey})
	c := newCaller(t, emu)
	live := c.readyBuild()
	candidate := c.readyBuild("cand", "git-abc")
	for ref, want := range map[string]string{
		"py": live.buildID, "py:default": live.buildID, "emulator/py": live.buildID,
		"py:cand": candidate.buildID, "py:" + candidate.buildID: candidate.buildID, "py:" + live.buildID: live.buildID,
	} {
		if got := c.sandboxBuild(emu, ref); got != want {
			t.Errorf("a sandbox of %s started from %s, want %s", ref, got, want)
		}
	}

	emu.FailBuild("py", "pip install exited with code 1")
	failed := c.create(map[string]any{"name": "py", "tags": []string{"next"}})
	c.start(failed, fromPython)
	c.status(failed)
	for ref, message := range map[string]string{
		"py:next":              "tag 'next' does not exist for template 'emulator/py'",
		"py:" + failed.buildID: "tag '" + failed.buildID + "' does not exist for template 'emulator/py'",
		"nobody":               "template 'nobody' not found",
	} {
		if status, _, out, _ := c.call("POST", "/sandboxes", map[string]any{"templateID": ref}); status != http.StatusNotFound || out["message"] != message {
			t.Errorf("POST /sandboxes %s = %d %v, want 404 %q", ref, status, out, message)
		}
	}
	if status, _, out, _ := c.call("POST", "/sandboxes", map[string]any{"templateID": "py:Not Valid"}); status != http.StatusBadRequest {
		t.Errorf("a malformed reference = %d %v, want 400", status, out)
	}
}

// TestKilledSandboxesFreeTheTemplate: sandboxes block a template's delete until they are killed.
func TestKilledSandboxesFreeTheTemplate(t *testing.T) {
	emu, _ := e2bemu.NewContractTestServer(t, e2bemu.Options{APIKey: apiKey})
	c := newCaller(t, emu)
	c.readyBuild()
	_, _, out, _ := c.call("POST", "/sandboxes", map[string]any{"templateID": "py"})
	id, _ := out["sandboxID"].(string)
	if status, _, _, _ := c.call("DELETE", "/templates/py", nil); status != http.StatusBadRequest {
		t.Errorf("delete with a running sandbox = %d, want 400", status)
	}
	if status, _, _, _ := c.call("DELETE", "/sandboxes/"+id, nil); status != http.StatusNoContent {
		t.Errorf("kill = %d, want 204", status)
	}
	if status, _, _, _ := c.call("DELETE", "/sandboxes/"+id, nil); status != http.StatusNotFound {
		t.Errorf("kill again = %d, want 404", status)
	}
	if status, _, _, _ := c.call("DELETE", "/templates/py", nil); status != http.StatusNoContent {
		t.Errorf("delete after the kill = %d, want 204", status)
	}
}

// TestTagsResolveBuildIDs: a build id in a tag's place names exactly that build when it is ready
// (get_template_with_build_by_tag.sql try_cast_uuid), for the alias check and as a tag target.
func TestTagsResolveBuildIDs(t *testing.T) {
	emu, _ := e2bemu.NewContractTestServer(t, e2bemu.Options{APIKey: apiKey})
	c := newCaller(t, emu)
	first := c.readyBuild()
	c.readyBuild()
	if status, _, _, _ := c.call("GET", "/templates/aliases/py:"+first.buildID, nil); status != http.StatusOK {
		t.Errorf("alias:<ready build id> = %d, want 200", status)
	}
	status, _, out, _ := c.call("POST", "/templates/tags", map[string]any{"target": "py:" + first.buildID, "tags": []string{"prod"}})
	if status != http.StatusCreated || out["buildID"] != first.buildID {
		t.Errorf("tagging py:<first build> = %d %v, want 201 on the first build", status, out)
	}
	if got := c.sandboxBuild(emu, "py:prod"); got != first.buildID {
		t.Errorf("py:prod started %s, want the first build %s", got, first.buildID)
	}
	if status, _, out, _ := c.call("POST", "/templates/tags", map[string]any{"target": "py", "tags": []string{}}); status != http.StatusBadRequest || out["message"] != "At least one tag is required" {
		t.Errorf("no tags = %d %v, want 400 At least one tag is required", status, out)
	}
	if status, _, out, _ := c.call("DELETE", "/templates/tags", map[string]any{"name": "other/py", "tags": []string{"prod"}}); status != http.StatusBadRequest {
		t.Errorf("removing a tag in another namespace = %d %v, want 400", status, out)
	}
}

// TestStartCancelsOnlyBuildsSharingATag: starting a build cancels the template's running builds
// that share one of its tags (get_concurrent_template_builds.sql), not a build under other tags.
func TestStartCancelsOnlyBuildsSharingATag(t *testing.T) {
	emu, _ := e2bemu.NewContractTestServer(t, e2bemu.Options{APIKey: apiKey})
	emu.HangBuild("py")
	c := newCaller(t, emu)
	live := c.create(map[string]any{"name": "py"})
	c.start(live, fromPython)
	candidate := c.create(map[string]any{"name": "py", "tags": []string{"cand"}})
	c.start(candidate, fromPython)
	if got := c.status(live)["status"]; got != "building" {
		t.Errorf("the default build after a candidate started = %v, want still building", got)
	}
	again := c.create(map[string]any{"name": "py", "tags": []string{"cand"}})
	c.start(again, fromPython)
	if got := c.status(candidate)["status"]; got != "error" {
		t.Errorf("a candidate build after another started under its tag = %v, want cancelled", got)
	}
}
