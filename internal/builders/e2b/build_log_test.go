package e2b

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders"
	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders/buildertest"
	"github.com/sandboxtf/terraform-provider-sandbox/internal/emulator/e2bemu"
)

// rewritingProxy is emu behind a proxy that may answer a request itself: answer gets the request
// and its body, and returns a status and body to answer with, or 0 to pass the request on, with
// edit given the answer to change.
func rewritingProxy(t *testing.T, emu *e2bemu.Server, answer func(r *http.Request, body []byte) (int, []byte), edit func(r *http.Request, body []byte) []byte) string {
	t.Helper()
	target, _ := url.Parse(emu.URL)
	proxy := httputil.NewSingleHostReverseProxy(target)
	proxy.ModifyResponse = func(resp *http.Response) error {
		body, err := io.ReadAll(resp.Body)
		if err != nil {
			return err
		}
		body = edit(resp.Request, body)
		resp.Body, resp.ContentLength = io.NopCloser(bytes.NewReader(body)), int64(len(body))
		resp.Header.Del("Content-Length")
		return nil
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		if status, out := answer(r, body); status != 0 {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(status)
			_, _ = w.Write(out)
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		proxy.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

func passOn(*http.Request, []byte) (int, []byte)    { return 0, nil }
func unchanged(_ *http.Request, body []byte) []byte { return body }

// A build's output can print a secret in two pieces, two log entries: neither reaches the result's
// logs or the listener.
func TestLogEntriesSplittingASecretAreRedacted(t *testing.T) {
	emu := newEmulator(t)
	var once sync.Once
	proxied := rewritingProxy(t, emu, passOn, func(r *http.Request, body []byte) []byte {
		if !strings.HasSuffix(r.URL.Path, "/status") {
			return body
		}
		var info map[string]any
		_ = json.Unmarshal(body, &info)
		entries, _ := info["logEntries"].([]any)
		if len(entries) == 0 {
			return body // before the build started: no log read yet
		}
		once.Do(func() {
			info["logEntries"] = append(entries,
				map[string]any{"message": "curl -H 'X-API-Key: " + testAPIKey[:10], "level": "info"},
				map[string]any{"message": testAPIKey[10:] + "' https://api.e2b.app", "level": "info"})
		})
		out, _ := json.Marshal(info)
		return out
	})
	b := newTestBuilder(t, emu, func(c *Config) { c.APIURL = proxied })
	var mu sync.Mutex
	var heard []string
	result, err := b.Build(t.Context(), builders.TemplateSpec{TemplateID: "py", Image: ciImage}, builders.Observer{OnProgress: func(line string) {
		mu.Lock()
		defer mu.Unlock()
		heard = append(heard, line)
	}})
	if err != nil {
		t.Fatal(err)
	}
	logs := strings.Join(result.Logs, "\n")
	buildertest.NoPartOfSecret(t, "the logs", logs, testAPIKey)
	buildertest.NoPartOfSecret(t, "what the listener heard", strings.Join(heard, "\n"), testAPIKey)
	if !strings.Contains(logs, "X-API-Key: "+builders.Redacted) || !strings.Contains(logs, builders.Redacted+"' https://api.e2b.app") {
		t.Errorf("each half should be redacted:\n%s", logs)
	}
}

// Go's encoder writes a registry password's & < > " as \u0026 \u003c \u003e \" in the build
// body: a server quoting the body in base64 shows none of it, in the error or in the logs.
func TestBase64OfTheBuildBodyHidesThePassword(t *testing.T) {
	const password = `e2b-p&ss<w>rd"1`
	emu := newEmulator(t)
	var sent []byte
	buildStart := regexp.MustCompile(`^/v2/templates/[^/]+/builds/[^/]+$`)
	proxied := rewritingProxy(t, emu, func(r *http.Request, body []byte) (int, []byte) {
		if r.Method != http.MethodPost || !buildStart.MatchString(r.URL.Path) {
			return 0, nil
		}
		sent = body
		out, _ := json.Marshal(map[string]any{"code": 400, "message": "invalid request body " + base64.StdEncoding.EncodeToString(body)})
		return http.StatusBadRequest, out
	}, unchanged)
	b := newTestBuilder(t, emu, func(c *Config) { c.APIURL = proxied })
	spec := builders.TemplateSpec{TemplateID: "private", Image: "registry.example.com/team/img:1", StartCmd: ptr(""),
		RegistryAuth: &builders.BasicAuth{Username: "robot", Password: builders.NewSecret(password)}}
	_, err := b.Build(t.Context(), spec, builders.Observer{})
	if err == nil || !strings.Contains(err.Error(), "invalid request body") || sent == nil {
		t.Fatalf("want the echoed 400, got %v", err)
	}
	escaped, _ := json.Marshal(password)
	text := err.Error() + "\n" + strings.Join(builders.LogsOf(err), "\n")
	buildertest.AssertNoBase64Of(t, "the error", text, string(sent), strings.Trim(string(escaped), `"`))
	buildertest.AssertNoSecretForms(t, "the error", text, password, testAPIKey)
}

// A status answer with more log entries than the poll asks for costs the entries asked for.
func TestStatusLogEntriesAreBounded(t *testing.T) {
	var info templateBuildInfo
	body := `{"status":"building","logEntries":[` + strings.Repeat(`{},`, 100_000) + `{"message":"last"}]}`
	if err := json.Unmarshal([]byte(body), &info); err != nil || len(info.LogEntries) != statusLogsLimit {
		t.Errorf("decoded %d entries (%v), want the %d asked for", len(info.LogEntries), err, statusLogsLimit)
	}
	for _, tt := range []struct{ body, want string }{
		{`{"logEntries":null}`, ""}, {`{"logEntries":[{"message":"a"},{"message":"b"}]}`, "a,b"}, {`{"logEntries":{}}`, "error"},
	} {
		info := templateBuildInfo{}
		err := json.Unmarshal([]byte(tt.body), &info)
		var got []string
		for _, e := range info.LogEntries {
			got = append(got, e.Message)
		}
		if (err != nil) != (tt.want == "error") || (err == nil && strings.Join(got, ",") != tt.want) {
			t.Errorf("%s: entries %q, error %v; want %q", tt.body, got, err, tt.want)
		}
	}
}
