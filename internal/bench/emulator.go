package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/emulator/e2bemu"
)

// Routes as the emulator's Stats name them (the mux patterns of e2bemu's server).
const (
	routeStatus = "GET /templates/{templateID}/builds/{buildID}/status"
	routeCreate = "POST /v3/templates"
)

// emulator is one cmd/sandbox-emulator process; the benchmark talks to its E2B API only.
type emulator struct {
	cmd *exec.Cmd
	url string // E2B_API_URL
}

// startEmulator serves an emulator on 127.0.0.1 whose E2B builds take buildDuration, and waits for
// the E2B_API_URL line it prints first. Its log goes to emulator-<name>.log in work.
func startEmulator(bin, work, name string, buildDuration time.Duration) (*emulator, error) {
	logFile, err := os.Create(filepath.Join(work, "emulator-"+name+".log"))
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(bin, "-addr", "127.0.0.1:0", "-api-key", apiKey, "-build-duration", buildDuration.String())
	cmd.Stderr = logFile
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, errors.Join(err, logFile.Close())
	}
	if err := cmd.Start(); err != nil {
		return nil, errors.Join(fmt.Errorf("starting emulator %s: %w", name, err), logFile.Close())
	}
	_ = logFile.Close() // the child holds its own descriptor
	e := &emulator{cmd: cmd}
	found := make(chan string, 1)
	go func() {
		lines := bufio.NewScanner(out)
		for lines.Scan() {
			if url, ok := strings.CutPrefix(lines.Text(), "E2B_API_URL="); ok {
				found <- url
				break
			}
		}
		close(found)
		_, _ = io.Copy(io.Discard, out) // a full pipe would block the emulator
	}()
	select {
	case url, ok := <-found:
		if ok && strings.HasPrefix(url, "http://127.0.0.1:") {
			e.url = url
			return e, nil
		}
		e.stop()
		return nil, fmt.Errorf("emulator %s printed no E2B_API_URL on 127.0.0.1 (%q): see %s", name, url, logFile.Name())
	case <-time.After(30 * time.Second):
		e.stop()
		return nil, fmt.Errorf("emulator %s did not start within 30 s: see %s", name, logFile.Name())
	}
}

func (e *emulator) stop() {
	if e.cmd.Process == nil {
		return
	}
	// SIGTERM, so it removes the service-account key file it wrote; a kill if it hangs.
	if e.cmd.Process.Signal(syscall.SIGTERM) != nil {
		return // already gone
	}
	done := make(chan struct{})
	go func() { _ = e.cmd.Wait(); close(done) }() // killed by us: its exit status says nothing
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		_ = e.cmd.Process.Kill()
		<-done
	}
}

// stats are the emulator's counters of the requests after request number since (StatsPath is
// neither authenticated nor counted, so reading it skews nothing).
func (e *emulator) stats(since int) (e2bemu.Stats, error) {
	var st e2bemu.Stats
	resp, err := http.Get(fmt.Sprintf("%s%s?since=%d", e.url, e2bemu.StatsPath, since))
	if err != nil {
		return st, err
	}
	defer func() { _ = resp.Body.Close() }()
	if resp.StatusCode != http.StatusOK {
		return st, fmt.Errorf("GET %s: %s", e2bemu.StatsPath, resp.Status)
	}
	return st, json.NewDecoder(resp.Body).Decode(&st)
}

// total is how many requests the emulator has counted: the since of what comes next.
func (e *emulator) total() (int, error) {
	st, err := e.stats(0)
	return st.Total, err
}

// control POSTs body to one of the emulator's control paths (e2bemu.ControlPrefix: no
// credentials, not counted).
func (e *emulator) control(name string, body any) error {
	data, err := json.Marshal(body)
	if err != nil {
		return err
	}
	resp, err := http.Post(e.url+e2bemu.ControlPrefix+name, "application/json", bytes.NewReader(data))
	if err != nil {
		return err
	}
	defer func() { _ = resp.Body.Close() }()
	if resp.StatusCode/100 != 2 {
		msg, _ := io.ReadAll(io.LimitReader(resp.Body, 1024))
		return fmt.Errorf("POST %s%s: %s %s", e2bemu.ControlPrefix, name, resp.Status, msg)
	}
	return nil
}

func (e *emulator) setBuildDuration(d time.Duration) error {
	return e.control("build-duration", map[string]string{"duration": d.String()})
}

func (e *emulator) setBuildConcurrency(limit int) error {
	return e.control("build-concurrency", map[string]int{"limit": limit})
}
