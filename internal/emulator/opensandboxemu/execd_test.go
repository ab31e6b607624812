package opensandboxemu

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
)

func TestExecdThroughTheEndpointAPI(t *testing.T) {
	s := New(Options{Programs: func(program string) (CommandResult, bool) {
		return CommandResult{ExitCode: 2, Stderr: []string{"no: " + program}}, true
	}})
	if err := s.Start("127.0.0.1:0"); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = s.Close() }()
	_, created, _ := call(t, s, "POST", "/v1/sandboxes", "", validCreate)
	id, _ := created["id"].(string)
	// The official SDK asks for the endpoint right after create, with no GET in between.
	_, ep, _ := call(t, s, "GET", "/v1/sandboxes/"+id+"/endpoints/44772", "", nil)
	endpoint, _ := ep["endpoint"].(string)
	token, _ := ep["headers"].(map[string]any)[ExecdTokenHeader].(string)
	if strings.HasPrefix(endpoint, "http") || token == "" {
		t.Fatalf("endpoint %v: want no scheme and a token header", ep)
	}

	run := func(token string) (*http.Response, string) {
		req, _ := http.NewRequest("POST", "http://"+endpoint+"/command", strings.NewReader(`{"command":"pip install x"}`))
		req.Header.Set(ExecdTokenHeader, token)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer func() { _ = resp.Body.Close() }()
		b, _ := io.ReadAll(resp.Body)
		return resp, string(b)
	}
	if resp, _ := run("wrong"); resp.StatusCode != 401 {
		t.Errorf("wrong token: %d", resp.StatusCode)
	}
	resp, stream := run(token)
	if resp.Header.Get("Content-Type") != "text/event-stream" {
		t.Errorf("content type %q", resp.Header.Get("Content-Type"))
	}
	blocks := strings.Split(strings.TrimSpace(stream), "\n\n")
	var last map[string]any
	_ = json.Unmarshal([]byte(blocks[len(blocks)-1]), &last)
	if len(blocks) != 3 || last["type"] != "error" || at(t, last, "error", "evalue") != "2" {
		t.Errorf("stream = %q", stream)
	}
	if cmds := s.Sandboxes()[0].Commands; len(cmds) != 1 || cmds[0].Command != "pip install x" {
		t.Errorf("recorded commands = %+v", cmds)
	}
}
