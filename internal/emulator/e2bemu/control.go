package e2bemu

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strings"
)

// ControlPrefix is the emulator's own path: fault injection, seeding and inspection for tests that
// drive the standalone emulator from outside. It needs no API key, is not recorded and never
// faulted. The endpoints are listed in the package documentation.
const ControlPrefix = "/_emulator/"

// control is one POST endpoint under ControlPrefix: it decodes its JSON body into a fresh value
// and applies it, or returns the message of a 400.
type control func(s *Server, body []byte) string

var controls = map[string]control{
	"fail-build": jsonControl(func(s *Server, c struct {
		Template, Reason, Step string
	}) string {
		step := c.Step
		if step == "" {
			step = "base"
		}
		if msg := firstProblem(required("reason", c.Reason), buildStep("step", step)); msg != "" {
			return msg
		}
		s.FailBuildAt(c.Template, c.Reason, step)
		return ""
	}),
	"hang-builds":    jsonControl(func(s *Server, c struct{ Template string }) string { s.HangBuild(c.Template); return "" }),
	"release-builds": jsonControl(func(s *Server, c struct{ Template string }) string { s.ReleaseBuild(c.Template); return "" }),
	"build-duration": jsonControl(func(s *Server, c struct{ Duration string }) string {
		d, bad := duration("duration", c.Duration)
		if msg := firstProblem(required("duration", c.Duration), bad); msg != "" {
			return msg
		}
		s.SetBuildDuration(d)
		return ""
	}),
	"fail-requests": jsonControl(func(s *Server, c struct{ Count, Status int }) string {
		if msg := firstProblem(nonNegative("count", c.Count), errorStatus("status", c.Status)); msg != "" {
			return msg
		}
		s.FailNext(c.Count, c.Status)
		return ""
	}),
	"build-concurrency": jsonControl(func(s *Server, c struct{ Limit int }) string {
		if msg := nonNegative("limit", c.Limit); msg != "" {
			return msg + " (0: no limit)"
		}
		s.SetBuildConcurrency(c.Limit)
		return ""
	}),
	"team-limits": jsonControl(func(s *Server, c TeamLimits) string {
		if msg := firstProblem(nonNegative("maxCpu", c.MaxCPU), nonNegative("maxMemoryMb", c.MaxMemoryMB)); msg != "" {
			return msg + " (0: E2B's default tier)"
		}
		s.SetTeamLimits(c)
		return ""
	}),
	"faults": jsonControl(func(s *Server, c struct {
		Rate       float64
		Seed       int64
		Status     []int
		RetryAfter string `json:"retry_after"`
		Latency    string
	}) string {
		retryAfter, msg1 := duration("retry_after", c.RetryAfter)
		latency, msg2 := duration("latency", c.Latency)
		if msg := firstProblem(fraction("rate", c.Rate), msg1, msg2, errorStatuses("status", c.Status)); msg != "" {
			return msg
		}
		s.SetFaults(Faults{Rate: c.Rate, Seed: c.Seed, Status: c.Status, RetryAfter: retryAfter, Latency: latency})
		return ""
	}),
	"drop-connections": jsonControl(func(s *Server, c struct {
		Template string
		Count    int
	}) string {
		if msg := firstProblem(required("template", c.Template), nonNegative("count", c.Count)); msg != "" {
			return msg
		}
		s.DropConnectionsDuringBuild(c.Template, c.Count)
		return ""
	}),
	"echo-request-bodies": jsonControl(func(s *Server, c struct{ Enabled bool }) string { s.EchoRequestBodies(c.Enabled); return "" }),
	"refuse-steps":        jsonControl(func(s *Server, c struct{ Enabled bool }) string { s.RefuseSteps(c.Enabled); return "" }),
	"seed/template": jsonControl(func(s *Server, c struct{ Name string }) string {
		if msg := templateName("name", c.Name); msg != "" {
			return msg
		}
		s.SeedReadyTemplate(c.Name)
		return ""
	}),
	"seed/failed-template": jsonControl(func(s *Server, c struct{ Name, Reason string }) string {
		if msg := firstProblem(templateName("name", c.Name), required("reason", c.Reason)); msg != "" {
			return msg
		}
		s.SeedFailedTemplate(c.Name, c.Reason)
		return ""
	}),
	"seed/foreign-template": jsonControl(func(s *Server, c struct {
		Name   string
		Public bool
	}) string {
		if msg := templateName("name", c.Name); msg != "" {
			return msg
		}
		s.SeedForeignTemplate(c.Name, c.Public)
		return ""
	}),
	"seed/sandboxes": jsonControl(func(s *Server, c struct {
		Template string
		Count    int
	}) string {
		if msg := firstProblem(required("template", c.Template), nonNegative("count", c.Count)); msg != "" {
			return msg
		}
		if !s.SeedSandboxes(c.Template, c.Count) {
			return "no template " + c.Template
		}
		return ""
	}),
}

// jsonControl adapts a typed control: the body's JSON fields match the struct's, case-insensitively.
func jsonControl[T any](apply func(*Server, T) string) control {
	return func(s *Server, body []byte) string {
		var c T
		if len(bytes.TrimSpace(body)) > 0 {
			dec := json.NewDecoder(bytes.NewReader(body))
			dec.DisallowUnknownFields()
			if err := dec.Decode(&c); err != nil {
				return "invalid body: " + err.Error()
			}
		}
		return apply(s, c)
	}
}

func (s *Server) serveControl(w http.ResponseWriter, r *http.Request) {
	name := strings.TrimPrefix(r.URL.Path, ControlPrefix)
	switch {
	case r.URL.Path == StatsPath:
		s.serveStats(w, r)
	case strings.HasPrefix(r.URL.Path, UploadPrefix):
		s.receiveUpload(w, r)
	case strings.HasPrefix(r.URL.Path, ServedPrefix):
		s.serveServed(w, r, strings.TrimPrefix(r.URL.Path, ServedPrefix))
	case strings.HasPrefix(name, "templates/"):
		serveInfo(w, r, "template", strings.TrimPrefix(name, "templates/"), s.Template)
	case name == "sandboxes":
		serveInfo(w, r, "sandboxes", "", func(string) ([]SandboxInfo, bool) { return s.Sandboxes(), true })
	case strings.HasPrefix(name, "sandboxes/"):
		serveInfo(w, r, "sandbox", strings.TrimPrefix(name, "sandboxes/"), s.Sandbox)
	case controls[name] != nil:
		if r.Method != http.MethodPost {
			writeError(w, http.StatusMethodNotAllowed, "only POST "+r.URL.Path)
			return
		}
		body, err := io.ReadAll(r.Body)
		if err != nil {
			writeError(w, http.StatusBadRequest, "reading the body: "+err.Error())
			return
		}
		if msg := controls[name](s, body); msg != "" {
			writeError(w, http.StatusBadRequest, msg)
			return
		}
		w.WriteHeader(http.StatusNoContent)
	default:
		writeError(w, http.StatusNotFound, "no emulator control "+r.URL.Path+" (see the e2bemu package documentation)")
	}
}

// serveInfo answers a GET of an inspection path (ControlPrefix+"templates/<id or alias>",
// "sandboxes/<id>") with what find reports for name, 404 when it knows no such kind.
func serveInfo[T any](w http.ResponseWriter, r *http.Request, kind, name string, find func(string) (T, bool)) {
	if r.Method != http.MethodGet {
		writeError(w, http.StatusMethodNotAllowed, "only GET "+r.URL.Path)
		return
	}
	info, ok := find(name)
	if !ok {
		writeError(w, http.StatusNotFound, "no "+kind+" "+name)
		return
	}
	writeJSON(w, http.StatusOK, info)
}

// SetTeamLimits sets the team's sizing maxima (zero fields: E2B's default tier, 8 CPUs and 8192 MiB).
func (s *Server) SetTeamLimits(l TeamLimits) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.limits = l.orDefault()
}

// SetBuildConcurrency sets the team's limit of concurrent template builds (0: no limit).
func (s *Server) SetBuildConcurrency(limit int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.concurrency = limit
}

// RefuseSteps makes build starts with steps answer 400 "steps are not supported", as E2B-compatible
// servers that build only from an image or template do (Options.RefuseSteps).
func (s *Server) RefuseSteps(refuse bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.refuseSteps = refuse
}
