package opensandbox

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders"
	"github.com/sandboxtf/terraform-provider-sandbox/internal/emulator/contract"
	"github.com/sandboxtf/terraform-provider-sandbox/internal/emulator/opensandboxemu"
)

// TestContractFullFlow runs a full builder flow (lookup, build with packages and steps replacing an
// older snapshot, delete) and validates every request and response on the wire against the OpenSandbox
// lifecycle and execd specs.
func TestContractFullFlow(t *testing.T) {
	// No 3.1 workaround is needed: kin-openapi v0.153 validates the 3.1 constructs these specs use
	// (timeout's oneOf [integer >= 60, {type: "null"}], type arrays) as written.
	v := bySpec{
		lifecycle: contract.NewValidator(t, contract.LoadSpec(t, "opensandbox-lifecycle.yml"), contract.Options{KeyHeader: "OPEN-SANDBOX-API-KEY"}),
		execd: contract.NewValidator(t, contract.LoadSpec(t, "opensandbox-execd.yml"),
			contract.Options{KeyHeader: "X-EXECD-ACCESS-TOKEN", Path: execdPath, EventSchema: "ServerStreamEvent"}),
	}
	h := newHarness(t, opensandboxemu.Options{PendingPolls: 2, CreatingPolls: 2}, func(c *Config) { c.HTTPClient = &http.Client{Transport: v} })
	h.emu.AddSnapshot("contract", opensandboxemu.SnapshotFailed)

	ctx := context.Background()
	auth := &builders.BasicAuth{Username: "robot", Password: builders.NewSecret("registry-password")}
	s := spec("contract")
	s.RegistryAuth, s.Packages, s.StartCmd = auth, []string{"six==1.16.0"}, ptr("tail -f /dev/null")
	s.Steps = []builders.BuildStep{{User: ptr("analyst")}, {Workdir: ptr("/srv/app")}, {Env: map[string]string{"A": "1"}},
		{File: &builders.FileStep{Content: ptr("x = 1\n"), Destination: "conf/x.py", Mode: "0600"}}, {Run: &builders.RunStep{Command: "true"}}}
	s.ReadyCmd = "true"
	if got := builders.Ensure(ctx, h.b, s, builders.Observer{}); got.Status != builders.StatusSuccess {
		t.Fatalf("Ensure = %+v", got)
	}
	if _, err := h.b.ResolveSnapshotID(ctx, "contract"); err != nil {
		t.Fatal(err)
	}
	if err := h.b.Delete(ctx, "contract"); err != nil {
		t.Fatal(err)
	}
	for _, op := range []string{"POST /sandboxes", "GET /sandboxes/{sandboxId}", "GET /sandboxes/{sandboxId}/endpoints/{port}",
		"GET /ping", "POST /command", "POST /sandboxes/{sandboxId}/snapshots", "GET /snapshots/{snapshotId}", "GET /snapshots",
		"DELETE /snapshots/{snapshotId}", "DELETE /sandboxes/{sandboxId}", "POST /directories", "POST /files/upload"} {
		if v.lifecycle.Seen(op)+v.execd.Seen(op) == 0 {
			t.Errorf("the flow never exercised %s", op)
		}
	}
}

// bySpec sends each request through the validator of the spec it belongs to: the emulator serves
// execd under /execd/{sandboxId}, the lifecycle API everywhere else.
type bySpec struct{ lifecycle, execd *contract.Validator }

func (b bySpec) RoundTrip(req *http.Request) (*http.Response, error) {
	if strings.HasPrefix(req.URL.Path, "/execd/") {
		return b.execd.Transport(nil).RoundTrip(req)
	}
	return b.lifecycle.Transport(nil).RoundTrip(req)
}

// execdPath maps /execd/{sandboxId}/ping onto the execd spec's /ping.
func execdPath(path string) string {
	_, rest, _ := strings.Cut(strings.TrimPrefix(path, "/execd/"), "/")
	return "/" + rest
}
