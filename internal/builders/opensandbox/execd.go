package opensandbox

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders"
	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders/apihttp"
)

// ExecdPort is the port of execd inside every sandbox (Go SDK DefaultExecdPort).
const ExecdPort = 44772

// execdReadyTimeout bounds the wait for execd's /ping after Running (the SDK waits 30s).
const execdReadyTimeout = 60 * time.Second

// execdTokenHeader is the endpoint header that lets us into execd: a secret, scrubbed from errors.
const execdTokenHeader = "X-EXECD-ACCESS-TOKEN"

// execd is one sandbox's execd, reached through the lifecycle endpoint API. The endpoint's headers
// (the X-EXECD-ACCESS-TOKEN among them) go on every request, as the SDKs forward them; the
// lifecycle API key never does. Nothing is retried: waitReady polls /ping itself, and a command is
// never run twice. A 401 or 403 here refuses the endpoint's token, not the user's API key, so it
// is no API_AUTH.
type execd struct{ api *apihttp.Client }

func (c *client) execd(ctx context.Context, sandboxID string) (*execd, error) {
	ep, err := c.endpoint(ctx, sandboxID, ExecdPort)
	if err != nil {
		return nil, err
	}
	base := strings.TrimRight(ep.Endpoint, "/")
	if !hasScheme(base) {
		base = c.BaseURL.Scheme + "://" + base // the server returns host/path without a scheme
	}
	u, err := url.Parse(base)
	if err != nil {
		return nil, fmt.Errorf("opensandbox: execd endpoint %q: %w", ep.Endpoint, err)
	}
	var secrets []builders.Secret
	for k, v := range ep.Headers {
		if strings.EqualFold(k, execdTokenHeader) {
			secrets = append(secrets, builders.NewSecret(v))
		}
	}
	return &execd{api: &apihttp.Client{Name: "OpenSandbox execd", BaseURL: u, HTTP: c.HTTP, UserAgent: c.UserAgent,
		Header: ep.Headers, Secrets: secrets, Retry: apihttp.RetryPolicy{MaxAttempts: 1}, ParseError: parseError}}, nil
}

// waitReady polls /ping: execd can start serving a moment after the sandbox is Running. Between
// failed pings, alive tells whether the sandbox still runs (an error ends the wait).
func (e *execd) waitReady(ctx context.Context, interval time.Duration, alive func() error) error {
	ctx, cancel := context.WithTimeoutCause(ctx, execdReadyTimeout, errors.New("execd did not answer /ping"))
	defer cancel()
	for {
		if e.api.Do(ctx, apihttp.Request{Method: http.MethodGet, Path: "/ping"}) == nil {
			return nil
		}
		if err := alive(); err != nil {
			return err
		}
		if err := apihttp.Sleep(ctx, interval); err != nil {
			return fmt.Errorf("opensandbox: waiting for execd: %w (%w)", err, context.Cause(ctx))
		}
	}
}

// commandResult is the outcome of one foreground command.
type commandResult struct {
	ExitCode int // -1 when execd reported an error without an exit code
	Error    string
	Output   []string // the last maxCommandOutputLines stdout and stderr lines, in arrival order, stderr labelled
	Omitted  int      // earlier lines dropped: a pip run can print hundreds of thousands
}

// stderrLabel marks a line of stderr in a command's output.
const stderrLabel = "stderr: "

// keep appends an output line, keeping memory bounded however long the command talks: of a long
// line (a progress bar redrawn without newlines), what the build log shows and what it scans past
// that for a secret straddling its cut (builders.KeptLogLineBytes), copied out of the event.
func (r *commandResult) keep(line string) {
	if len(line) > builders.KeptLogLineBytes {
		line = strings.Clone(line[:builders.KeptLogLineBytes])
	}
	r.Output = append(r.Output, line)
	if over := len(r.Output) - maxCommandOutputLines; over > 0 {
		r.Output, r.Omitted = r.Output[over:], r.Omitted+over
	}
}

// run executes a foreground command and reads execd's event stream to its end, as it comes.
func (e *execd) run(ctx context.Context, req runCommandRequest) (commandResult, error) {
	var result commandResult
	err := e.api.Do(ctx, apihttp.Request{Method: http.MethodPost, Path: "/command", In: req,
		Read: func(stream io.Reader) (err error) {
			result, err = readCommandStream(stream)
			return err
		}})
	return result, err
}

type runCommandRequest struct {
	Command string            `json:"command"`
	Cwd     string            `json:"cwd,omitempty"`     // execd's own when empty; must exist
	Timeout int64             `json:"timeout,omitempty"` // milliseconds
	UID     *uint32           `json:"uid,omitempty"`     // execd's user (root) when nil
	GID     *uint32           `json:"gid,omitempty"`
	Envs    map[string]string `json:"envs,omitempty"`
	// Background detaches the command (start_command.go): the stream ends after its init event.
	Background bool `json:"background,omitempty"`
}

// streamEvent is execd's ServerStreamEvent, the fields a command stream uses.
type streamEvent struct {
	Type  string `json:"type"`
	Text  string `json:"text"`
	Error *struct {
		EName  string `json:"ename"`
		EValue string `json:"evalue"`
	} `json:"error"`
}

// readCommandStream reads a foreground command's stream. A command succeeded when
// execution_complete came and no error event did; execd sends a non-zero exit as an error event
// whose evalue is the code.
func readCommandStream(r io.Reader) (commandResult, error) {
	var result commandResult
	complete, failed := false, false
	err := eachEvent(r, func(ev streamEvent) {
		switch ev.Type {
		case "stdout":
			result.keep(strings.TrimRight(ev.Text, "\n"))
		case "stderr":
			result.keep(stderrLabel + strings.TrimRight(ev.Text, "\n"))
		case "error":
			failed = true
			result.ExitCode, result.Error = exitCodeOf(ev)
		case "execution_complete":
			complete = true
		}
	})
	if err != nil {
		return result, err
	}
	if !failed && !complete {
		return result, errors.New("opensandbox: the command stream ended before the command completed")
	}
	return result, nil
}

// eachEvent parses execd's stream as it comes: raw JSON events separated by blank lines (execd) or
// SSE "data:" lines (the spec's media type).
func eachEvent(r io.Reader, f func(streamEvent)) error {
	scanner := bufio.NewScanner(r)
	scanner.Buffer(make([]byte, 64<<10), 16<<20)
	for scanner.Scan() {
		line := bytes.TrimSpace(scanner.Bytes())
		line = bytes.TrimSpace(bytes.TrimPrefix(line, []byte("data:")))
		if len(line) == 0 || line[0] != '{' {
			continue // blank separators, comments, event:/id: fields
		}
		var ev streamEvent
		if json.Unmarshal(line, &ev) != nil {
			continue
		}
		f(ev)
	}
	if err := scanner.Err(); err != nil {
		return fmt.Errorf("opensandbox: reading the command stream: %w", err)
	}
	return nil
}

func exitCodeOf(ev streamEvent) (int, string) {
	if ev.Error == nil {
		return -1, "command failed"
	}
	var code int
	if _, err := fmt.Sscanf(ev.Error.EValue, "%d", &code); err == nil && code != 0 {
		return code, fmt.Sprintf("exit code %d", code)
	}
	return -1, strings.TrimSpace(ev.Error.EName + ": " + ev.Error.EValue)
}
