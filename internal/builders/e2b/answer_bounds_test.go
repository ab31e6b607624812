package e2b

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders"
	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders/apihttp"
)

// hostileItems is an answer of nearly MaxAnswerBody of empty objects in an array, prefix and
// suffix around them: within the byte bound, and millions of values once decoded.
func hostileItems(prefix, suffix string) string {
	n := (apihttp.MaxAnswerBody - len(prefix) - len(suffix) - 64) / 3
	return prefix + "{}" + strings.Repeat(",{}", n-1) + suffix
}

// realItems is an answer of n copies of item (formatted with its index) in an array.
func realItems(prefix, item, suffix string, n int) string {
	items := make([]string, n)
	for i := range items {
		items[i] = fmt.Sprintf(item, i)
	}
	return prefix + strings.Join(items, ",") + suffix
}

// answering is a Builder on a server that answers every GET with body and counts the requests.
func answering(t *testing.T, body string) (*Builder, *atomic.Int32) {
	t.Helper()
	var requests atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		requests.Add(1)
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(body))
	}))
	t.Cleanup(srv.Close)
	b, err := New(Config{APIKey: builders.NewSecret(testAPIKey), APIURL: srv.URL})
	if err != nil {
		t.Fatal(err)
	}
	b.pollInterval, b.maxPoll = 0, 0
	return b, &requests
}

const (
	statusPrefix = `{"templateID":"t","buildID":"b","status":"building","logEntries":[`
	readyPrefix  = `{"templateID":"t","buildID":"b","status":"ready","logEntries":[`
)

// The hostile answers of issue 31 (16 MiB of `{}` as log entries, tags, listed templates) fail
// at the first answer with the bound's message, before anything is decoded.
func TestHostileAnswersAreRefusedByTheirItemCount(t *testing.T) {
	for _, tt := range []struct {
		name, body, want string
		call             func(*Builder) error
	}{
		{"status poll", hostileItems(statusPrefix, "]}"),
			"GET /templates/t/builds/b/status: the answer holds more than 10000 items",
			func(b *Builder) error { return b.waitForBuild(t.Context(), "t", "b", &buildLog{}, failureHints{}) }},
		{"tags", hostileItems("[", "]"), "GET /templates/t/tags: the answer holds more than 100000 items",
			func(b *Builder) error { _, err := b.api.templateTags(t.Context(), "t"); return err }},
		{"template list", hostileItems("[", "]"), "GET /templates: the answer holds more than 250000 items",
			func(b *Builder) error { _, err := b.listTemplates(t.Context()); return err }},
	} {
		t.Run(tt.name, func(t *testing.T) {
			b, requests := answering(t, tt.body)
			err := tt.call(b)
			if err == nil || !strings.Contains(err.Error(), tt.want) || !strings.Contains(err.Error(), "not one the E2B API gives") {
				t.Errorf("got %v, want an error containing %q", err, tt.want)
			}
			if n := requests.Load(); n != 1 {
				t.Errorf("%d requests, want the first answer refused", n)
			}
		})
	}
}

// Answers as large as real ones pass: a full page of log entries with the legacy logs beside
// them, 5,000 tags, a team of 8,000 templates with every field E2B lists.
func TestRealSizedAnswersPass(t *testing.T) {
	entry := `{"timestamp":"2026-01-02T03:04:05Z","message":"step %d: installing packages","level":"info","step":"3"}`
	entries := realItems(readyPrefix, entry, "]", statusLogsLimit-1) // a full page would be followed by another
	b, _ := answering(t, entries+`,"logs":[`+realItems("", `"line %d"`, "", statusLogsLimit)+`]}`)
	logs := &buildLog{}
	if err := b.waitForBuild(t.Context(), "t", "b", logs, failureHints{}); err != nil || len(logs.Lines()) != statusLogsLimit-1 {
		t.Errorf("a page of log entries: %v, %d lines", err, len(logs.Lines()))
	}

	b, _ = answering(t, realItems("[", `{"tag":"v%d","buildID":"8f0c6e43-3b7e-4c38-a1a4-0b4e7c5f9d21","createdAt":"2026-01-02T03:04:05Z"}`, "]", 5000))
	if tags, err := b.api.templateTags(t.Context(), "t"); err != nil || len(tags) != 5000 {
		t.Errorf("5,000 tags: %d, %v", len(tags), err)
	}

	template := `{"templateID":"tpl%d","buildID":"8f0c6e43-3b7e-4c38-a1a4-0b4e7c5f9d21","cpuCount":2,"memoryMB":1024,"diskSizeMB":5120,` +
		`"public":false,"aliases":["a"],"names":["team/a"],"createdAt":"2026-01-02T03:04:05Z","updatedAt":"2026-01-02T03:04:05Z",` +
		`"createdBy":{"email":"dev@example.com","id":"u1"},"lastSpawnedAt":null,"spawnCount":0,"buildCount":1,"envdVersion":"0.2.0","buildStatus":"ready"}`
	b, _ = answering(t, realItems("[", template, "]", 8000))
	if listed, err := b.listTemplates(t.Context()); err != nil || len(listed) != 8000 {
		t.Errorf("8,000 templates: %d, %v", len(listed), err)
	}
}
