package lifecycle

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os/exec"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders"
)

// emulator is a running cmd/sandbox-emulator, known only by the settings it printed and its
// /_emulator/ control paths (sandbox-emulator -help).
type emulator struct {
	proc     *exec.Cmd
	settings map[string]string
	client   *http.Client
}

// startEmulator runs the binary until stop and reads its NAME=value lines up to "# ready".
func startEmulator(bin string) (*emulator, error) {
	cmd := exec.Command(bin)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	e := &emulator{proc: cmd, settings: map[string]string{}, client: &http.Client{Timeout: 30 * time.Second}}
	lines := bufio.NewScanner(out)
	for lines.Scan() {
		line := lines.Text()
		if strings.HasPrefix(line, "# ready") {
			go func() { _, _ = io.Copy(io.Discard, out) }()
			return e, nil
		}
		if name, value, ok := strings.Cut(line, "="); ok && !strings.HasPrefix(line, "#") {
			e.settings[name] = value
		}
	}
	e.stop()
	return nil, fmt.Errorf("sandbox-emulator ended before printing its ready line: %v", lines.Err())
}

func (e *emulator) stop() {
	_ = e.proc.Process.Signal(syscall.SIGTERM)
	_ = e.proc.Wait()
}

// env is what a CLI needs to reach the emulator: the printed settings the provider reads, and
// none of the user's own that would point it elsewhere.
func (e *emulator) env() []string {
	out := []string{"E2B_DOMAIN=", "OPEN_SANDBOX_PROTOCOL="}
	for _, name := range []string{"E2B_API_URL", "E2B_API_KEY", "E2B_SANDBOX_URL", "OPEN_SANDBOX_DOMAIN", "OPEN_SANDBOX_API_KEY",
		"DAYTONA_API_URL", "DAYTONA_API_KEY", "DAYTONA_TARGET"} {
		out = append(out, name+"="+e.settings[name])
	}
	return out
}

func (e *emulator) e2bURL() string { return e.settings["E2B_API_URL"] }
func (e *emulator) osbURL() string { return "http://" + e.settings["OPEN_SANDBOX_DOMAIN"] }

// call sends a JSON request and decodes a 2xx answer into out (when not nil). A 404 is reported
// as errNotFound.
func (e *emulator) call(method, url string, header map[string]string, body, out any) error {
	var payload io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return err
		}
		payload = bytes.NewReader(b)
	}
	req, err := http.NewRequest(method, url, payload)
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	for k, v := range header {
		req.Header.Set(k, v)
	}
	resp, err := e.client.Do(req)
	if err != nil {
		return err
	}
	defer func() { _ = resp.Body.Close() }()
	raw, _ := io.ReadAll(resp.Body)
	switch {
	case resp.StatusCode == http.StatusNotFound:
		return errNotFound
	case resp.StatusCode/100 != 2:
		return fmt.Errorf("%s %s: %d %s", method, url, resp.StatusCode, raw)
	case out == nil || len(raw) == 0:
		return nil
	}
	return json.Unmarshal(raw, out)
}

var errNotFound = errors.New("not found")

func (e *emulator) e2bControl(name string, body any) error {
	return e.call(http.MethodPost, e.e2bURL()+"/_emulator/"+name, nil, body, nil)
}

// osbFault makes the next POST under pathPrefix answer status (with Retry-After retryAfter seconds, when set).
func (e *emulator) osbFault(pathPrefix string, status int, retryAfter string) error {
	return e.call(http.MethodPost, e.osbURL()+"/_emulator/faults", nil,
		map[string]any{"method": http.MethodPost, "pathPrefix": pathPrefix, "status": status, "count": 1, "retryAfter": retryAfter}, nil)
}

func (e *emulator) e2bAPI(method, path string, out any) error {
	return e.call(method, e.e2bURL()+path, map[string]string{"X-API-Key": e.settings["E2B_API_KEY"]}, nil, out)
}

func (e *emulator) osbAPI(method, path string, out any) error {
	return e.call(method, e.osbURL()+"/v1"+path, map[string]string{"OPEN-SANDBOX-API-KEY": e.settings["OPEN_SANDBOX_API_KEY"]}, nil, out)
}

// e2bServed is GET /_emulator/served/{name} of the E2B emulator.
type e2bServed struct {
	BuildID  string `json:"build_id"`
	CPUCount int    `json:"cpu_count"`
	MemoryMB int    `json:"memory_mb"`
	Start    *struct {
		FromImage *string `json:"fromImage"`
		Steps     []struct {
			Type string   `json:"type"`
			Args []string `json:"args"`
		} `json:"steps"`
		StartCmd *string `json:"startCmd"`
		ReadyCmd *string `json:"readyCmd"`
	} `json:"start"`
}

// osbServed is GET /_emulator/served/{name} of the OpenSandbox emulator.
type osbServed struct {
	ID       string `json:"id"`
	Image    string `json:"image"`
	Commands []struct {
		Command    string `json:"command"`
		Background bool   `json:"background"` // the start command, started detached after the steps
	} `json:"commands"`
	Sandbox *struct {
		Entrypoint []string `json:"entrypoint"`
	} `json:"sandbox"`
}

// servedE2B is what a sandbox of template id would start from; nil when nothing serves it.
func (e *emulator) servedE2B(id string) (*e2bServed, error) {
	return served[e2bServed](e, e.e2bURL()+"/_emulator/served/"+url.PathEscape(id))
}

// servedOSB is the snapshot a sandbox of template name would start from; nil when there is none.
func (e *emulator) servedOSB(name string) (*osbServed, error) {
	return served[osbServed](e, e.osbURL()+"/_emulator/served/"+url.PathEscape(name))
}

func served[T any](e *emulator, url string) (*T, error) {
	var s T
	err := e.call(http.MethodGet, url, nil, nil, &s)
	if errors.Is(err, errNotFound) {
		return nil, nil
	}
	return &s, err
}

// remoteTemplates lists, through the APIs as a user would, every E2B template of the team and
// every OpenSandbox snapshot name, by backend.
func (e *emulator) remoteTemplates() (map[string][]string, error) {
	var e2b []struct {
		Aliases []string `json:"aliases"`
	}
	if err := e.e2bAPI(http.MethodGet, "/templates", &e2b); err != nil {
		return nil, err
	}
	out := map[string][]string{}
	for _, t := range e2b {
		out[backendE2B] = append(out[backendE2B], t.Aliases...)
	}
	snaps, err := e.snapshots("")
	for _, s := range snaps {
		out[backendOpenSandbox] = append(out[backendOpenSandbox], s.Name)
	}
	if err != nil {
		return out, err
	}
	daytona, err := e.daytonaSnapshots()
	for _, s := range daytona {
		if s.live() {
			out[backendDaytona] = append(out[backendDaytona], s.templateID())
		}
	}
	return out, err
}

type snapshot struct {
	ID   string `json:"id"`
	Name string `json:"name"`
}

// snapshots lists OpenSandbox's snapshots (of name, when set), every page.
func (e *emulator) snapshots(name string) ([]snapshot, error) {
	var all []snapshot
	for page := 1; ; page++ {
		var answer struct {
			Items      []snapshot `json:"items"`
			Pagination struct {
				HasNextPage bool `json:"hasNextPage"`
			} `json:"pagination"`
		}
		query := url.Values{"page": {fmt.Sprint(page)}, "pageSize": {"200"}}
		if name != "" {
			query.Set("name", name)
		}
		if err := e.osbAPI(http.MethodGet, "/snapshots?"+query.Encode(), &answer); err != nil {
			return nil, err
		}
		all = append(all, answer.Items...)
		if !answer.Pagination.HasNextPage {
			return all, nil
		}
	}
}

// deleteRemote deletes a template behind Terraform's back, as a user with the API key would.
func (e *emulator) deleteRemote(backend, id string) error {
	if backend == backendE2B {
		err := e.e2bAPI(http.MethodDelete, "/templates/"+url.PathEscape(id), nil)
		if errors.Is(err, errNotFound) {
			return nil
		}
		return err
	}
	if backend == backendDaytona {
		return e.deleteDaytona(id)
	}
	snaps, err := e.snapshots(id)
	for _, s := range snaps {
		if delErr := e.osbAPI(http.MethodDelete, "/snapshots/"+url.PathEscape(s.ID), nil); delErr != nil && !errors.Is(delErr, errNotFound) {
			err = errors.Join(err, delErr)
		}
	}
	return err
}

// startedBuilds maps every build that has started (E2B builds, OpenSandbox snapshots) to the
// template it belongs to, and tells whether a build is still running (an E2B build building, an
// OpenSandbox builder sandbox alive).
func (e *emulator) startedBuilds() (started map[string]string, running bool, err error) {
	var stats struct {
		Builds []struct {
			Template  string     `json:"template"`
			BuildID   string     `json:"build_id"`
			Status    string     `json:"status"`
			StartedAt *time.Time `json:"started_at"`
		} `json:"builds"`
	}
	if err := e.call(http.MethodGet, e.e2bURL()+"/_emulator/stats", nil, nil, &stats); err != nil {
		return nil, false, err
	}
	started = map[string]string{}
	for _, b := range stats.Builds {
		if b.StartedAt != nil {
			started[b.BuildID] = b.Template
			running = running || b.Status == "building"
		}
	}
	var snaps []snapshot
	if err := e.call(http.MethodGet, e.osbURL()+"/_emulator/snapshots", nil, nil, &snaps); err != nil {
		return nil, false, err
	}
	for _, s := range snaps {
		started[s.ID] = s.Name
	}
	sandboxes, err := e.sandboxes()
	for _, sb := range sandboxes {
		started[sb.ID] = "" // a build began; its snapshot, if any, says of which template
		running = running || sb.running()
	}
	if err != nil {
		return started, running, err
	}
	daytona, err := e.daytonaSnapshots()
	for _, s := range daytona {
		started[s.ID] = s.templateID()
		running = running || s.building()
	}
	return started, running, err
}

// sandbox is an OpenSandbox sandbox as the emulator recorded it (deleted ones included).
type sandbox struct {
	ID      string `json:"id"`
	State   string `json:"state"`
	Deleted bool   `json:"deleted"`
}

func (s sandbox) running() bool { return !s.Deleted && (s.State == "Running" || s.State == "Pending") }

// sandboxes lists every OpenSandbox sandbox ever created: here, only builder sandboxes.
func (e *emulator) sandboxes() ([]sandbox, error) {
	var out []sandbox
	err := e.call(http.MethodGet, e.osbURL()+"/_emulator/sandboxes", nil, nil, &out)
	return out, err
}

// readyBuilds lists the ready builds of E2B template id, oldest first (the emulator's own view).
func (e *emulator) readyBuilds(id string) ([]string, error) {
	var info struct {
		Builds []struct {
			BuildID string `json:"build_id"`
			Status  string `json:"status"`
		} `json:"builds"`
	}
	err := e.call(http.MethodGet, e.e2bURL()+"/_emulator/templates/"+url.PathEscape(id), nil, nil, &info)
	if errors.Is(err, errNotFound) {
		return nil, nil
	}
	var ready []string
	for _, b := range info.Builds {
		if b.Status == "ready" {
			ready = append(ready, b.BuildID)
		}
	}
	return ready, err
}

// assignTag points tag of E2B template id at build, as a user with the API key would (E2B's SDK:
// Template.assignTags).
func (e *emulator) assignTag(id, build, tag string) error {
	return e.call(http.MethodPost, e.e2bURL()+"/templates/tags", map[string]string{"X-API-Key": e.settings["E2B_API_KEY"]},
		map[string]any{"target": id + ":" + build, "tags": []string{tag}}, nil)
}

// removeTag removes every assignment of tag of E2B template id, as a user with the API key would.
func (e *emulator) removeTag(id, tag string) error {
	err := e.call(http.MethodDelete, e.e2bURL()+"/templates/tags", map[string]string{"X-API-Key": e.settings["E2B_API_KEY"]},
		map[string]any{"name": id, "tags": []string{tag}}, nil)
	if errors.Is(err, errNotFound) {
		return nil // the template is gone
	}
	return err
}

// e2bSandbox is a running E2B sandbox, as the emulator lists it.
type e2bSandbox struct {
	SandboxID string            `json:"sandbox_id"`
	BuildID   string            `json:"build_id"`
	Metadata  map[string]string `json:"metadata"`
}

// checkSandboxes lists the running E2B sandboxes a check started (its labels, builders.CheckLabels).
func (e *emulator) checkSandboxes() ([]e2bSandbox, error) {
	var running []e2bSandbox
	if err := e.call(http.MethodGet, e.e2bURL()+"/_emulator/sandboxes", nil, nil, &running); err != nil {
		return nil, err
	}
	return slices.DeleteFunc(running, func(sb e2bSandbox) bool { return sb.Metadata["sandboxtf-role"] != builders.CheckRole }), nil
}
