package opensandbox

import (
	"net/http"
	"strings"
	"testing"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders/apihttp"
)

// FuzzParseError: any error body, in either of OpenSandbox's shapes or neither, becomes an
// apihttp.Error that keeps its status and never echoes the body's raw "input" (it may hold a password).
func FuzzParseError(f *testing.F) {
	for _, seed := range []string{
		`{"code":"DOCKER::SANDBOX_NOT_FOUND","message":"no such sandbox"}`,
		`{"detail":[{"loc":["body","timeout"],"msg":"must be >= 60","input":"SECRET-INPUT"}]}`,
		`{"detail":"plain text detail"}`,
		`{"detail":[{"loc":[1,{"x":2}],"msg":""}]}`,
		`not json`, ``, `[]`, `{"code":5}`,
	} {
		f.Add(422, []byte(seed))
	}
	f.Fuzz(func(t *testing.T, status int, body []byte) {
		e := &apihttp.Error{Backend: "OpenSandbox", Method: "POST", Path: "/sandboxes", StatusCode: status}
		parseError(e, http.Header{"X-Request-Id": {"r"}}, body)
		if e.StatusCode != status {
			t.Fatalf("parseError = %+v, want the status %d kept", e, status)
		}
		if strings.Contains(e.Error(), "SECRET-INPUT") {
			t.Fatalf("the request input echoed in a 422 leaked: %v", e)
		}
	})
}

// FuzzReadCommandStream: any stream either ends with a result or an error; it never panics.
func FuzzReadCommandStream(f *testing.F) {
	for _, seed := range []string{
		"{\"type\":\"stdout\",\"text\":\"ok\\n\"}\n\n{\"type\":\"execution_complete\"}\n",
		"data: {\"type\":\"error\",\"error\":{\"ename\":\"CommandExecError\",\"evalue\":\"1\"}}\n\n",
		"data: {\"type\":\"error\"}\n", "event: x\nid: 1\n", "{\"type\":\"stdout\"", "", "{}\n{\"type\":7}",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, stream string) {
		result, err := readCommandStream(strings.NewReader(stream))
		if err == nil && result.ExitCode != 0 && result.Error == "" {
			t.Fatalf("a failed command must say why: %+v", result)
		}
	})
}
