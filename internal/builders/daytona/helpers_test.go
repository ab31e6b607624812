package daytona

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders"
	"github.com/sandboxtf/terraform-provider-sandbox/internal/emulator/daytonaemu"
)

const (
	testKey = "dtn_test-key-0123456789"
	// testDigest is what every tag resolves to in these tests: no registry is asked.
	testDigest = "sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
)

// newBuilder is a builder of emu that polls without waiting, and whose clock is the emulator's.
func newBuilder(t *testing.T, emu *daytonaemu.Server, edit ...func(*Config)) *Builder {
	t.Helper()
	cfg := Config{APIKey: builders.NewSecret(testKey), APIURL: emu.APIURL(), PollInterval: time.Millisecond,
		ResolveDigest: func(context.Context, string, builders.RegistryAuth) (string, error) { return testDigest, nil },
		RegistryLogin: func(context.Context, string, builders.RegistryAuth) (string, builders.Secret, error) {
			t.Error("no aws or gcp registry_auth here: the login exchange must not be called")
			return "", builders.Secret{}, nil
		}}
	for _, e := range edit {
		e(&cfg)
	}
	b, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func newEmulator(t *testing.T, opts daytonaemu.Options) *daytonaemu.Server {
	opts.APIKey = testKey
	return daytonaemu.NewTestServer(t, opts)
}

// api calls the emulator as a test, not as the builder: marked so hooks tell the two apart.
func api(t *testing.T, emu *daytonaemu.Server, method, path string, in, out any) int {
	t.Helper()
	var body bytes.Buffer
	if in != nil {
		if err := json.NewEncoder(&body).Encode(in); err != nil {
			t.Fatal(err)
		}
	}
	req, err := http.NewRequest(method, emu.APIURL()+path, &body)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+testKey)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set(probeHeader, "1")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = resp.Body.Close() }()
	if out != nil && resp.StatusCode < 300 {
		if err := json.NewDecoder(resp.Body).Decode(out); err != nil {
			t.Fatal(err)
		}
	}
	return resp.StatusCode
}

const probeHeader = "X-Test-Probe"

// snapshots are the organization's snapshots, as the API lists them.
func snapshots(t *testing.T, emu *daytonaemu.Server) []snapshot {
	t.Helper()
	var page snapshotPage
	if status := api(t, emu, http.MethodGet, "/snapshots?limit=200", nil, &page); status != http.StatusOK {
		t.Fatalf("listing snapshots: HTTP %d", status)
	}
	return page.Items
}

func snapshotNamed(t *testing.T, emu *daytonaemu.Server, name string) (snapshot, bool) {
	t.Helper()
	var s snapshot
	status := api(t, emu, http.MethodGet, "/snapshots/"+name, nil, &s)
	return s, status == http.StatusOK
}

// builderRequests are the requests the builder sent (not the test's own), as "METHOD /path".
func builderRequests(emu *daytonaemu.Server) []string {
	var out []string
	for _, r := range emu.Requests() {
		if r.Header.Get(probeHeader) == "" {
			out = append(out, r.Method+" "+strings.TrimPrefix(r.Path, daytonaemu.APIPath))
		}
	}
	return out
}

func count(requests []string, want string) int {
	n := 0
	for _, r := range requests {
		if r == want {
			n++
		}
	}
	return n
}

// pinnedPython is python:3.12 as a build pins it.
const pinnedPython = "python@" + testDigest

func str(s string) *string { return &s }

// emulatedSnapshot is a snapshot as the emulator's control route shows it: read without counting
// as a read (which moves a snapshot along its states), removed ones included.
type emulatedSnapshot struct {
	snapshot
	Removed bool `json:"removed"`
}

func emulated(t *testing.T, emu *daytonaemu.Server) []emulatedSnapshot {
	t.Helper()
	resp, err := http.Get(emu.URL + daytonaemu.ControlPath + "snapshots")
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = resp.Body.Close() }()
	var all []emulatedSnapshot
	if err := json.NewDecoder(resp.Body).Decode(&all); err != nil {
		t.Fatal(err)
	}
	return all
}
