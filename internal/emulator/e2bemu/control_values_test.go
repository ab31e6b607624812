package e2bemu_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/emulator/e2bemu"
)

// postControl POSTs body to the control path and returns the status and the error message.
func postControl(t *testing.T, emu *e2bemu.Server, path, body string) (int, string) {
	t.Helper()
	resp, err := http.Post(emu.URL+e2bemu.ControlPrefix+path, "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = resp.Body.Close() }()
	var answer struct{ Message string }
	_ = json.NewDecoder(resp.Body).Decode(&answer)
	return resp.StatusCode, answer.Message
}

// Negative or nonsense control values are refused with a 400 that names the field and says what
// it must be; nothing of the control is applied.
func TestControlsRefuseNonsenseValuesNamingTheField(t *testing.T) {
	emu := e2bemu.NewTestServer(t, e2bemu.Options{APIKey: apiKey})
	for _, tt := range []struct{ path, body, want string }{
		{"fail-build", `{"reason":"boom","step":"-1"}`, `step must be "base", "finalize" or a step number from 1, not "-1"`},
		{"fail-build", `{"reason":"boom","step":"later"}`, `step must be`},
		{"fail-build", `{"step":"2"}`, "reason is required"},
		{"build-duration", `{"duration":"-2s"}`, `duration must be a Go duration >= 0 such as "2s", not "-2s"`},
		{"build-duration", `{"duration":"soon"}`, `duration must be a Go duration`},
		{"build-duration", `{}`, "duration is required"},
		{"fail-requests", `{"count":-1,"status":500}`, "count must be >= 0, not -1"},
		{"fail-requests", `{"count":1,"status":200}`, "status must be an error status (4xx or 5xx), not 200"},
		{"build-concurrency", `{"limit":-3}`, "limit must be >= 0, not -3"},
		{"team-limits", `{"maxCpu":-1}`, "maxCpu must be >= 0, not -1"},
		{"team-limits", `{"maxMemoryMb":-512}`, "maxMemoryMb must be >= 0, not -512"},
		{"faults", `{"rate":1.5}`, "rate must be between 0 and 1, not 1.5"},
		{"faults", `{"rate":0.1,"retry_after":"-1s"}`, `retry_after must be a Go duration >= 0 such as "2s", not "-1s"`},
		{"faults", `{"rate":0.1,"latency":"-5ms"}`, `latency must be a Go duration >= 0`},
		{"faults", `{"rate":0.1,"status":[500,1000]}`, "status[1] must be an error status (4xx or 5xx), not 1000"},
		{"drop-connections", `{"template":"py","count":-2}`, "count must be >= 0, not -2"},
		{"drop-connections", `{"count":2}`, "template is required"},
		{"seed/template", `{"name":"Not A Name!"}`, `name must be a template name`},
		{"seed/template", `{"name":"py:v1"}`, `name must be a template name`},
		{"seed/failed-template", `{"name":"py"}`, "reason is required"},
		{"seed/foreign-template", `{"name":""}`, "name is required"},
		{"seed/sandboxes", `{"template":"py","count":-1}`, "count must be >= 0, not -1"},
	} {
		if status, msg := postControl(t, emu, tt.path, tt.body); status != http.StatusBadRequest || !strings.Contains(msg, tt.want) {
			t.Errorf("%s %s = %d %q, want 400 with %q", tt.path, tt.body, status, msg, tt.want)
		}
	}
	if status, _, _, _ := newCaller(t, emu).call("GET", "/templates", nil); status != http.StatusOK {
		t.Errorf("after the refused controls GET /templates answered %d, want 200 (no fault applied)", status)
	}
	for _, good := range []struct{ path, body string }{
		{"fail-build", `{"template":"py","reason":"boom","step":"2"}`}, {"build-duration", `{"duration":"0s"}`},
		{"faults", `{"rate":0,"retry_after":"1s","latency":"0s","status":[503]}`}, {"seed/template", `{"name":"team/py"}`},
	} {
		if status, msg := postControl(t, emu, good.path, good.body); status != http.StatusNoContent {
			t.Errorf("%s %s = %d %q, want 204", good.path, good.body, status, msg)
		}
	}
}
