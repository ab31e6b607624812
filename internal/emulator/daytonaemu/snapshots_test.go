package daytonaemu

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"
)

// A snapshot of an image goes pending -> pulling -> active, with the image's entrypoint; it is
// found by name and by id, listed by part of its name, and its name cannot be taken again.
func TestSnapshotFromImageStates(t *testing.T) {
	c := newClient(t, Options{})
	created := c.must(http.StatusOK, http.MethodPost, "/snapshots", map[string]any{"name": "py-1", "imageName": "python:3.12-slim", "cpu": 2, "memory": 4, "disk": 5})
	seen, sn := c.states(created)
	if !slices.Equal(seen, []string{"pending", "pulling", "active"}) {
		t.Fatalf("states %v, want pending, pulling, active", seen)
	}
	if sn["cpu"] != 2.0 || sn["mem"] != 4.0 || sn["disk"] != 5.0 || sn["imageName"] != "python:3.12-slim" {
		t.Errorf("snapshot %v", sn)
	}
	if got := c.must(http.StatusOK, http.MethodGet, "/snapshots/"+str(sn, "id"), nil); got["name"] != "py-1" {
		t.Errorf("GET by id: %v", got)
	}
	c.must(http.StatusOK, http.MethodPost, "/snapshots", map[string]any{"name": "other", "imageName": "alpine:3.20"})
	list := c.must(http.StatusOK, http.MethodGet, "/snapshots?name=PY&limit=10", nil)
	items, _ := list["items"].([]any)
	if len(items) != 1 {
		t.Fatalf("?name=PY: %v", list)
	}
	if first, _ := items[0].(map[string]any); list["total"] != 1.0 || first["name"] != "py-1" || list["totalPages"] != 1.0 {
		t.Errorf("?name=PY: %v", list)
	}
	c.refused(http.StatusConflict, `Snapshot with name "py-1" already exists for this organization`,
		http.MethodPost, "/snapshots", map[string]any{"name": "py-1", "imageName": "python:3.12-slim"})
	c.refused(http.StatusNotFound, "Snapshot with name nope not found", http.MethodGet, "/snapshots/nope", nil)
}

// POST /snapshots refuses what snapshot.controller.ts and snapshot.service.ts refuse, with their
// messages.
func TestSnapshotCreateRefusals(t *testing.T) {
	c := newClient(t, Options{})
	for _, tt := range []struct {
		body    map[string]any
		status  int
		message string
	}{
		{map[string]any{"name": "a", "imageName": "python:latest"}, 400, `Images with tag ":latest" are not allowed`},
		{map[string]any{"name": "a", "imageName": "python"}, 400, "Image name must include a tag (e.g., ubuntu:22.04) or digest (@sha256:...)"},
		{map[string]any{"name": "a", "imageName": "python@sha256:abc"}, 400, "Invalid digest format. Must be image@sha256:64_hex_characters"},
		{map[string]any{"name": "a b", "imageName": "python:3.12"}, 400, "Invalid snapshot name format. May contain letters, digits, dots, colons, and dashes"},
		{map[string]any{"name": "a"}, 400, "Must specify an image name when not using a build info entry"},
		{map[string]any{"name": "a", "imageName": "python:3.12", "buildInfo": map[string]any{"dockerfileContent": "FROM python:3.12\n"}}, 400, "Cannot specify an image name when using a build info entry"},
		{map[string]any{"name": "a", "entrypoint": []string{"x"}, "buildInfo": map[string]any{"dockerfileContent": "FROM python:3.12\n"}}, 400, "Cannot specify an entrypoint when using a build info entry"},
		{map[string]any{"name": "a", "imageName": "python:3.12", "cpu": 5}, 400, "CPU request 5 exceeds maximum allowed per sandbox (4).\n" + perSandboxLimitMessage},
		{map[string]any{"name": "a", "imageName": "python:3.12", "memory": 9}, 400, "Memory request 9GB exceeds maximum allowed per sandbox (8GB).\n" + perSandboxLimitMessage},
		{map[string]any{"name": "a", "imageName": "python:3.12", "disk": 11}, 400, "Disk request 11GB exceeds maximum allowed per sandbox (10GB).\n" + perSandboxLimitMessage},
		{map[string]any{"name": "a", "imageName": "python:3.12", "gpu": 2}, 400, "gpu must not be greater than 1"},
		{map[string]any{"name": "a", "imageName": "python:3.12", "gpu": 1}, 400, "GPU quota exceeded. Maximum allowed: 0."},
		{map[string]any{"name": "a", "imageName": "python:3.12", "cpu": -1}, 400, "cpu must not be less than 0"},
		{map[string]any{"name": "a", "imageName": "python:3.12", "regionId": "mars"}, 404, "Region not found"},
	} {
		c.refused(tt.status, tt.message, http.MethodPost, "/snapshots", tt.body)
	}
	if got := c.s.Stats().Snapshots; len(got) != 0 {
		t.Errorf("refused creates left snapshots: %v", got)
	}
}

// An image the image model does not know fails to pull: pending -> error, with the daemon's
// message as errorReason.
func TestSnapshotPullFailure(t *testing.T) {
	c := newClient(t, Options{})
	seen, sn := c.states(c.must(http.StatusOK, http.MethodPost, "/snapshots", map[string]any{"name": "bad", "imageName": "python:9.99"}))
	if !slices.Equal(seen, []string{"pending", "error"}) || !strings.Contains(str(sn, "errorReason"), "manifest for python:9.99 not found") {
		t.Errorf("states %v, errorReason %v", seen, sn["errorReason"])
	}
	c.refused(http.StatusNotFound, "Snapshot "+str(sn, "id")+" has no build info", http.MethodGet, "/snapshots/"+str(sn, "id")+"/build-logs-url", nil)
}

// A Dockerfile builds in the shell model: building -> active, with a build log read through the
// build-logs URL; a RUN that fails ends the snapshot in error with BuildKit's message.
func TestSnapshotBuild(t *testing.T) {
	c := newClient(t, Options{})
	dockerfile := "FROM python:3.12-slim-bookworm\nRUN apt-get update\nRUN apt-get install -y curl\nRUN python -m pip install requests\nENV GREETING='hello there'\nWORKDIR /app\n"
	seen, sn := c.states(c.must(http.StatusOK, http.MethodPost, "/snapshots", map[string]any{"name": "built", "buildInfo": map[string]any{"dockerfileContent": dockerfile}}))
	if !slices.Equal(seen, []string{"pending", "building", "active"}) {
		t.Fatalf("states %v (%v)", seen, sn["errorReason"])
	}
	if ep, _ := sn["entrypoint"].([]any); len(ep) != 2 || ep[0] != "sleep" {
		t.Errorf("entrypoint %v, want sleep infinity (getEntrypointFromDockerfile)", ep)
	}
	url := str(c.must(http.StatusOK, http.MethodGet, "/snapshots/"+str(sn, "id")+"/build-logs-url", nil), "url")
	status, log := c.raw(http.MethodGet, strings.TrimPrefix(url, c.s.URL)+"?follow=true", nil)
	if status != http.StatusOK || !strings.Contains(string(log), "RUN apt-get install -y curl") || !strings.Contains(string(log), "Successfully installed requests") {
		t.Errorf("build log %d:\n%s", status, log)
	}

	same := c.must(http.StatusOK, http.MethodPost, "/snapshots", map[string]any{"name": "built-again", "buildInfo": map[string]any{"dockerfileContent": dockerfile}})
	if same["state"] != StateActive {
		t.Errorf("the same Dockerfile again: %v, want active at once (a runner holds its snapshotRef)", same["state"])
	}

	seen, failed := c.states(c.must(http.StatusOK, http.MethodPost, "/snapshots", map[string]any{"name": "broken", "buildInfo": map[string]any{"dockerfileContent": "FROM python:3.12-slim\nRUN exit 3\n"}}))
	want := `failed to solve: process "/bin/sh -c exit 3" did not complete successfully: exit code: 3`
	if !slices.Equal(seen, []string{"pending", "building", "error"}) || failed["errorReason"] != want {
		t.Errorf("states %v, errorReason %q, want %q", seen, failed["errorReason"], want)
	}
}

// DELETE takes a UUID only (a name is ParseUUIDPipe's 400); the snapshot goes removing, keeps its
// name until the manager removed it, then is gone and its name free.
func TestSnapshotDelete(t *testing.T) {
	c := newClient(t, Options{})
	_, sn := c.states(c.must(http.StatusOK, http.MethodPost, "/snapshots", map[string]any{"name": "gone", "imageName": "alpine:3.20"}))
	id := str(sn, "id")
	c.refused(http.StatusBadRequest, "Validation failed (uuid is expected)", http.MethodDelete, "/snapshots/gone", nil)
	c.refused(http.StatusNotFound, "Snapshot with name nope not found", http.MethodDelete, "/snapshots/nope", nil)
	c.must(http.StatusOK, http.MethodDelete, "/snapshots/"+id, nil)
	c.refused(http.StatusConflict, `Snapshot with name "gone" already exists for this organization`,
		http.MethodPost, "/snapshots", map[string]any{"name": "gone", "imageName": "alpine:3.20"})
	if got := c.must(http.StatusOK, http.MethodGet, "/snapshots/"+id, nil); got["state"] != StateRemoving {
		t.Errorf("after DELETE: %v, want removing", got["state"])
	}
	c.refused(http.StatusNotFound, "Snapshot with name "+id+" not found", http.MethodGet, "/snapshots/"+id, nil)
	c.must(http.StatusOK, http.MethodPost, "/snapshots", map[string]any{"name": "gone", "imageName": "alpine:3.20"})
}

// Activation: refused while active, within the 10 minutes after a deactivation, and for a name;
// after the cooldown an inactive snapshot goes pending and back to active.
func TestSnapshotActivate(t *testing.T) {
	c := newClient(t, Options{})
	_, sn := c.states(c.must(http.StatusOK, http.MethodPost, "/snapshots", map[string]any{"name": "idle", "imageName": "alpine:3.20"}))
	id := str(sn, "id")
	c.refused(http.StatusBadRequest, "Snapshot "+id+" is already active", http.MethodPost, "/snapshots/"+id+"/activate", nil)
	if err := c.s.Expire("idle"); err != nil {
		t.Fatal(err)
	}
	if got := c.must(http.StatusOK, http.MethodGet, "/snapshots/idle", nil); got["state"] != StateInactive {
		t.Fatalf("expired: %v", got["state"])
	}
	c.refused(http.StatusBadRequest, "Snapshot deactivation is still in progress. Please try again in a few minutes.", http.MethodPost, "/snapshots/"+id+"/activate", nil)
	c.refused(http.StatusBadRequest, "Validation failed (uuid is expected)", http.MethodPost, "/snapshots/idle/activate", nil)
	c.refused(http.StatusBadRequest, "Snapshot idle is inactive", http.MethodPost, "/sandbox", map[string]any{"snapshot": "idle"})
	c.s.AdvanceClock(activationCooldown)
	activated := c.must(http.StatusOK, http.MethodPost, "/snapshots/"+id+"/activate", nil)
	if seen, _ := c.states(activated); !slices.Equal(seen, []string{"pending", "pulling", "active"}) {
		t.Errorf("after activate: %v", seen)
	}
	c.must(http.StatusNoContent, http.MethodPost, "/snapshots/"+id+"/deactivate", nil)
	c.refused(http.StatusBadRequest, "Snapshot deactivation is still in progress. Please try again in a few minutes.", http.MethodPost, "/snapshots/"+id+"/activate", nil)
}

// A private image pulls only with an organization registry entry matching its registry URL and
// holding its credentials.
func TestPrivateImageNeedsMatchingRegistry(t *testing.T) {
	c := newClient(t, Options{PrivateImages: map[string]Credential{"ghcr.io/acme/app": {Username: "bot", Password: "s3cret"}}})
	pull := func(name string) map[string]any {
		_, sn := c.states(c.must(http.StatusOK, http.MethodPost, "/snapshots", map[string]any{"name": name, "imageName": "ghcr.io/acme/app:1.0"}))
		return sn
	}
	if sn := pull("anon"); sn["state"] != StateError || !strings.Contains(str(sn, "errorReason"), "pull access denied for ghcr.io/acme/app") {
		t.Errorf("without an entry: %v %v", sn["state"], sn["errorReason"])
	}
	entry := c.must(http.StatusCreated, http.MethodPost, "/docker-registry", map[string]any{"name": "ghcr", "url": "https://ghcr.io.evil", "username": "bot", "password": "s3cret"})
	if _, leaked := entry["password"]; leaked {
		t.Errorf("the entry answers its password: %v", entry)
	}
	if sn := pull("other-host"); sn["state"] != StateError {
		t.Errorf("an entry for another host (ghcr.io.evil) matched: %v", sn["state"])
	}
	id := str(entry, "id")
	c.must(http.StatusOK, http.MethodPatch, "/docker-registry/"+id, map[string]any{"name": "ghcr", "url": "https://ghcr.io", "username": "bot", "password": "wrong"})
	if sn := pull("wrong"); sn["state"] != StateError {
		t.Errorf("wrong password: %v", sn["state"])
	}
	c.must(http.StatusOK, http.MethodPatch, "/docker-registry/"+id, map[string]any{"name": "ghcr", "url": "https://ghcr.io", "username": "bot", "password": "s3cret"})
	if sn := pull("right"); sn["state"] != StateActive {
		t.Errorf("matching entry: %v %v", sn["state"], sn["errorReason"])
	}
	c.must(http.StatusNoContent, http.MethodDelete, "/docker-registry/"+id, nil)
	c.refused(http.StatusNotFound, "Docker registry with ID "+id+" not found", http.MethodGet, "/docker-registry/"+id, nil)
}

// A sandbox of a built snapshot runs toolbox commands over what the build installed; a wrong key
// is the guard's 401.
func TestSandboxRunsOverTheBuild(t *testing.T) {
	c := newClient(t, Options{})
	dockerfile := "FROM python:3.12-slim-bookworm\nRUN apt-get update && apt-get install -y curl\nENV GREETING=hi\nWORKDIR /app\n"
	c.states(c.must(http.StatusOK, http.MethodPost, "/snapshots", map[string]any{"name": "tools", "buildInfo": map[string]any{"dockerfileContent": dockerfile}}))
	sb := c.must(http.StatusOK, http.MethodPost, "/sandbox", map[string]any{"snapshot": "tools", "env": map[string]string{"EXTRA": "x"}})
	if sb["state"] != "started" || sb["user"] != "daytona" {
		t.Fatalf("sandbox %v", sb)
	}
	exec := "/toolbox/" + str(sb, "id") + "/process/execute"
	out := c.must(http.StatusOK, http.MethodPost, exec, map[string]any{"command": "curl --version && echo $GREETING $EXTRA && pwd"})
	if out["exitCode"] != 0.0 || !strings.Contains(str(out, "result"), "curl 7") || !strings.Contains(str(out, "result"), "hi x\n/app") {
		t.Errorf("execute: %v", out)
	}
	if out := c.must(http.StatusOK, http.MethodPost, exec, map[string]any{"command": "wget -q x"}); out["exitCode"] != 127.0 {
		t.Errorf("a program the image lacks: %v", out)
	}
	c.must(http.StatusOK, http.MethodDelete, "/sandbox/"+str(sb, "id"), nil)
	if got := c.must(http.StatusOK, http.MethodGet, "/sandbox/"+str(sb, "id"), nil); got["state"] != "destroyed" {
		t.Errorf("after delete: %v", got["state"])
	}
	c.refused(http.StatusBadRequest, "Snapshot missing not found. Did you add it through the Daytona Dashboard?", http.MethodPost, "/sandbox", map[string]any{"snapshot": "missing"})
	c.key = "wrong"
	c.refused(http.StatusUnauthorized, "Invalid credentials", http.MethodGet, "/snapshots", nil)
}

// Without WORKDIR the daemon works in its user's home (DAYTONA_USER_HOME_AS_WORKDIR), as the
// image's user, with the sandbox's identity in its environment.
func TestExecuteWithoutWorkdir(t *testing.T) {
	c := newClient(t, Options{})
	c.states(c.must(http.StatusOK, http.MethodPost, "/snapshots", map[string]any{"name": "plain", "imageName": "python:3.12-slim"}))
	sb := c.must(http.StatusOK, http.MethodPost, "/sandbox", map[string]any{"snapshot": "plain", "user": "root"})
	out := c.must(http.StatusOK, http.MethodPost, "/toolbox/"+str(sb, "id")+"/process/execute",
		map[string]any{"command": "pwd; id -un; echo $DAYTONA_SANDBOX_ID $DAYTONA_SANDBOX_SNAPSHOT $X", "envs": map[string]string{"X": "y"}})
	if want := "/root\nroot\n" + str(sb, "id") + " plain y\n"; out["result"] != want {
		t.Errorf("result %q, want %q", out["result"], want)
	}
	if out := c.must(http.StatusOK, http.MethodPost, "/toolbox/"+str(sb, "id")+"/process/execute", map[string]any{"command": "pwd", "cwd": "/tmp"}); out["result"] != "/tmp\n" {
		t.Errorf("cwd /tmp: %q", out["result"])
	}
	c.refused(http.StatusBadRequest, "command cannot be empty or whitespace-only", http.MethodPost, "/toolbox/"+str(sb, "id")+"/process/execute", map[string]any{"command": " "})
}

// The settings control holds snapshots where they are (pollsPerState -1) until released, so a
// client can be interrupted mid-build.
func TestHoldSnapshots(t *testing.T) {
	c := newClient(t, Options{})
	c.must(http.StatusOK, http.MethodPut, "/_emulator/settings", map[string]any{"pollsPerState": -1})
	created := c.must(http.StatusOK, http.MethodPost, "/snapshots", map[string]any{"name": "held", "imageName": "alpine:3.20"})
	for range 3 {
		if got := c.must(http.StatusOK, http.MethodGet, "/snapshots/held", nil); got["state"] != StatePending {
			t.Fatalf("held: %v", got["state"])
		}
	}
	c.must(http.StatusOK, http.MethodPut, "/_emulator/settings", map[string]any{"pollsPerState": 1})
	if seen, _ := c.states(created); seen[len(seen)-1] != StateActive {
		t.Errorf("released: %v", seen)
	}
}

// A build FROM a private image pulls it with the organization's entry for its registry host
// (getSourceRegistriesForDockerfile); without one the build fails to resolve the base image.
func TestBuildFromPrivateBase(t *testing.T) {
	c := newClient(t, Options{PrivateImages: map[string]Credential{"registry.acme.dev/base": {Username: "ci", Password: "pw"}}})
	build := func(name string) map[string]any {
		_, sn := c.states(c.must(http.StatusOK, http.MethodPost, "/snapshots", map[string]any{"name": name,
			"buildInfo": map[string]any{"dockerfileContent": "FROM registry.acme.dev/base:2\nRUN echo " + name + "\n"}}))
		return sn
	}
	if sn := build("anon"); sn["state"] != StateError || !strings.Contains(str(sn, "errorReason"), "failed to resolve source metadata for registry.acme.dev/base:2") {
		t.Errorf("without an entry: %v %q", sn["state"], str(sn, "errorReason"))
	}
	c.must(http.StatusCreated, http.MethodPost, "/docker-registry", map[string]any{"name": "acme", "url": "registry.acme.dev", "username": "ci", "password": "pw"})
	if sn := build("with-entry"); sn["state"] != StateActive {
		t.Errorf("with the entry: %v %q", sn["state"], str(sn, "errorReason"))
	}
}

// GET /sandbox lists the sandboxes not destroyed, by label.
func TestListSandboxesByLabel(t *testing.T) {
	c := newClient(t, Options{})
	c.states(c.must(http.StatusOK, http.MethodPost, "/snapshots", map[string]any{"name": "base", "imageName": "alpine:3.20"}))
	mine := c.must(http.StatusOK, http.MethodPost, "/sandbox", map[string]any{"snapshot": "base", "labels": map[string]string{"owner": "check"}})
	c.must(http.StatusOK, http.MethodPost, "/sandbox", map[string]any{"snapshot": "base", "labels": map[string]string{"owner": "other"}})
	list := c.must(http.StatusOK, http.MethodGet, `/sandbox?labels={"owner":"check"}`, nil)
	items, _ := list["items"].([]any)
	if len(items) != 1 {
		t.Fatalf("by label: %v", list)
	}
	if first, _ := items[0].(map[string]any); first["id"] != mine["id"] || list["nextCursor"] != nil {
		t.Errorf("by label: %v", list)
	}
	c.must(http.StatusOK, http.MethodDelete, "/sandbox/"+str(mine, "id"), nil)
	c.must(http.StatusOK, http.MethodGet, "/sandbox/"+str(mine, "id"), nil) // destroyed since
	if list := c.must(http.StatusOK, http.MethodGet, `/sandbox?labels={"owner":"check"}`, nil); fmt.Sprint(list["items"]) != "[]" {
		t.Errorf("a destroyed sandbox is listed: %v", list)
	}
}

// The served control reports the active snapshot a sandbox of a name starts from, with what its
// build set; none while the snapshot is not active.
func TestServedSnapshot(t *testing.T) {
	c := newClient(t, Options{})
	created := c.must(http.StatusOK, http.MethodPost, "/snapshots", map[string]any{"name": "srv",
		"buildInfo": map[string]any{"dockerfileContent": "FROM python:3.12-slim\nENV A=b\nWORKDIR /w\n"}})
	if _, ok := c.s.ServedSnapshot("srv"); ok {
		t.Error("a pending snapshot is served")
	}
	c.states(created)
	got, ok := c.s.ServedSnapshot("srv")
	if !ok || got.Env["A"] != "b" || got.Workdir != "/w" || !strings.HasPrefix(got.Dockerfile, "FROM python:3.12-slim") {
		t.Errorf("served %+v %v", got, ok)
	}
}
