package opensandboxemu

import (
	"bytes"
	"io"
	"mime/multipart"
	"net/http"
	"strings"
	"testing"
)

// TestExecdFoldersUsersAndWorkingDirectories: a cwd must exist (execd validates it), folders come
// from /directories, uploads and useradd --create-home, owners must be users, and a snapshot keeps
// the folders and users for the sandboxes restored from it.
func TestExecdFoldersUsersAndWorkingDirectories(t *testing.T) {
	s := New(Options{})
	if err := s.Start("127.0.0.1:0"); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = s.Close() }()
	execd := func(sandbox string) func(method, path, contentType, body string) (int, string) {
		_, ep, _ := call(t, s, "GET", "/v1/sandboxes/"+sandbox+"/endpoints/44772", "", nil)
		endpoint, _ := ep["endpoint"].(string)
		headers, _ := ep["headers"].(map[string]any)
		token, _ := headers[ExecdTokenHeader].(string)
		return func(method, path, contentType, body string) (int, string) {
			req, _ := http.NewRequest(method, "http://"+endpoint+path, strings.NewReader(body))
			req.Header.Set(ExecdTokenHeader, token)
			req.Header.Set("Content-Type", contentType)
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer func() { _ = resp.Body.Close() }()
			b, _ := io.ReadAll(resp.Body)
			return resp.StatusCode, string(b)
		}
	}
	_, created, _ := call(t, s, "POST", "/v1/sandboxes", "", validCreate)
	sandboxID, _ := created["id"].(string)
	do := execd(sandboxID)
	command := func(body string) (int, string) { return do("POST", "/command", "application/json", body) }

	if status, body := command(`{"command":"true","cwd":"/srv/app"}`); status != 400 ||
		!strings.Contains(body, "invalid request, validation error working directory does not exist: /srv/app") {
		t.Errorf("a missing cwd = %d %s", status, body)
	}
	if status, body := command(`{"command":"true","gid":1000}`); status != 400 || !strings.Contains(body, "uid is required when gid is provided") {
		t.Errorf("gid without uid = %d %s", status, body)
	}
	if status, body := do("POST", "/directories", "application/json", `{"/srv/app/data":{"owner":"nobody-here","mode":755}}`); status != 500 ||
		!strings.Contains(body, "failed to lookup user nobody-here: user: unknown user nobody-here") {
		t.Errorf("an unknown owner = %d %s", status, body)
	}
	if status, _ := command(`{"command":"true","cwd":"/srv/app"}`); status != 200 {
		t.Errorf("the parent /directories made: %d", status)
	}
	if status, _ := command(`{"command":"useradd --create-home --shell /bin/bash analyst"}`); status != 200 {
		t.Fatalf("useradd = %d", status)
	}
	if status, body := command(`{"command":"getent passwd analyst"}`); !strings.Contains(body, `analyst:x:1000:1000::/home/analyst:/bin/bash`) {
		t.Errorf("getent = %d %s", status, body)
	}
	var form bytes.Buffer
	w := multipart.NewWriter(&form)
	meta, _ := w.CreateFormFile("metadata", "metadata")
	_, _ = meta.Write([]byte(`{"path":"/opt/tool/bin/run","owner":"analyst","group":"analyst","mode":755}`))
	file, _ := w.CreateFormFile("file", "run")
	_, _ = file.Write([]byte("#!/bin/sh\n"))
	_ = w.Close()
	if status, body := do("POST", "/files/upload", w.FormDataContentType(), form.String()); status != 200 {
		t.Fatalf("upload = %d %s", status, body)
	}
	// The refused calls are not recorded: mkdir, true, useradd, getent, upload.
	if calls := s.Sandboxes()[0].Calls; len(calls) != 5 || calls[4].Upload == nil || calls[4].Upload.Mode != 755 || string(calls[4].Upload.Content) != "#!/bin/sh\n" {
		t.Errorf("calls = %+v", calls)
	}

	_, snap, _ := call(t, s, "POST", "/v1/sandboxes/"+sandboxID+"/snapshots", "", map[string]any{"name": "steps"})
	snapID, _ := snap["id"].(string)
	call(t, s, "GET", "/v1/snapshots/"+snapID, "", nil) // Creating, then Ready
	_, restored, _ := call(t, s, "POST", "/v1/sandboxes", "", map[string]any{"snapshotId": snap["id"], "resourceLimits": map[string]string{"cpu": "1"}, "timeout": 600})
	restoredID, _ := restored["id"].(string)
	again := execd(restoredID)
	if status, body := again("POST", "/command", "application/json", `{"command":"getent passwd analyst","cwd":"/opt/tool/bin"}`); status != 200 ||
		!strings.Contains(body, "/home/analyst") {
		t.Errorf("a restored sandbox lost the snapshot's folders or users: %d %s", status, body)
	}
}
