package daytona

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders"
	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders/apihttp"
)

// waitActive polls s until it is active. error and build_failed end it with the server's
// errorReason and, for a build, its log; so does a snapshot that is removed or goes inactive
// meanwhile.
func (b *Builder) waitActive(ctx context.Context, s snapshot, log *builders.BuildLog) (snapshot, error) {
	seen := ""
	for {
		if s.State != seen {
			log.Addf("snapshot %s: %s", s.Name, s.State)
			seen = s.State
		}
		switch {
		case s.State == stateActive:
			return s, nil
		case s.failed():
			b.addBuildLog(ctx, s, log)
			return snapshot{}, builders.AtStage(failureStage(s), fmt.Errorf("snapshot %s: %s: %s", s.Name, s.State, s.reason()))
		case s.State == stateRemoving || s.State == stateInactive:
			return snapshot{}, builders.AtStage(builders.StageTemplateBuild, fmt.Errorf("%s while waiting for it to be active", describe(s)))
		}
		if err := apihttp.Sleep(ctx, b.pollInterval); err != nil {
			return snapshot{}, fmt.Errorf("waiting for snapshot %s to be active: %w", s.Name, err)
		}
		got, found, err := b.api.getSnapshot(ctx, s.ID)
		if err != nil {
			return snapshot{}, err
		}
		if !found {
			return snapshot{}, builders.AtStage(builders.StageTemplateBuild, fmt.Errorf("snapshot %s was removed while waiting for it to be active", s.Name))
		}
		s = got
	}
}

// failureStage: a snapshot pulled from an image that fails could not pull it; a build that fails
// ran its Dockerfile (whose FROM may fail to pull too: the reason tells).
func failureStage(s snapshot) builders.Stage {
	if s.BuildInfo == nil || builders.IsImagePullFailure(s.reason()) {
		return builders.StageImagePull
	}
	return builders.StageTemplateBuild
}

// addBuildLog adds a failed build's log to log: GET /snapshots/{id}/build-logs-url, then the text
// at that URL (snapshot.controller.ts getSnapshotBuildLogsUrl; the SDK adds follow=true while the
// build runs). An image snapshot has none: its errorReason is all there is. Failing to read it
// is a line of the log, not another error.
func (b *Builder) addBuildLog(ctx context.Context, s snapshot, log *builders.BuildLog) {
	if s.BuildInfo == nil {
		return
	}
	var logsURL struct {
		URL string `json:"url"`
	}
	err := b.api.Do(ctx, apihttp.Request{Method: http.MethodGet, Path: "/snapshots/" + url.PathEscape(s.ID) + "/build-logs-url", Out: &logsURL})
	if err == nil {
		err = b.readLogText(ctx, logsURL.URL, log)
	}
	if err != nil {
		log.Addf("(could not read the build log: %v)", err)
	}
}

// readLogText reads the log at raw (a URL of the region's proxy, sent the API's headers as the
// SDK sends them) into log, line by line.
func (b *Builder) readLogText(ctx context.Context, raw string, log *builders.BuildLog) error {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") {
		return fmt.Errorf("the server named no http(s) build log URL (%q)", raw)
	}
	logs := *b.api.Client
	logs.BaseURL = &url.URL{Scheme: u.Scheme, Host: u.Host}
	return logs.Do(ctx, apihttp.Request{Method: http.MethodGet, Path: u.Path, Query: u.Query(), Read: func(r io.Reader) error {
		scanner := bufio.NewScanner(r)
		scanner.Buffer(make([]byte, 64<<10), 1<<20)
		for scanner.Scan() {
			log.AddOutput("", strings.TrimRight(scanner.Text(), "\r"))
		}
		return scanner.Err()
	}})
}

func statusOf(err error) int { return apihttp.StatusOf(err) }
