package e2bemu

import (
	"math/rand"
	"net/http"
	"strconv"
	"time"
)

// Faults answer a share of all requests with an error before they are handled, as an overloaded
// API would: nothing behind a faulted request happens.
type Faults struct {
	Rate       float64       // share of requests (0..1) that fail
	Seed       int64         // makes the sequence of failures repeatable
	Status     []int         // statuses to answer with, in turn (default 500, 502, 503, 429)
	RetryAfter time.Duration // sent with 429 (whole seconds)
	Latency    time.Duration // added to every request
}

// faultHeader marks injected error responses so NewContractValidator can tell them from the
// emulator's own answers (the real API never sends it; clients ignore unknown headers).
const faultHeader = "X-Emulator-Injected-Fault"

type faultState struct {
	Faults
	rng          *rand.Rand
	next         int
	failNext     int
	failNextCode int
	drops        map[string]int          // template name -> status polls to drop
	failBuilds   map[string]buildFailure // template name ("" for any) -> its next build's failure
	hung         map[string]bool         // template name ("" for every template) -> its builds hang
	injected     int
}

func newFaultState() faultState {
	return faultState{drops: map[string]int{}, failBuilds: map[string]buildFailure{}, hung: map[string]bool{}}
}

// buildFailure is an injected build failure: the reason's message and the step it names.
type buildFailure struct{ reason, step string }

// SetFaults replaces the random fault policy.
func (s *Server) SetFaults(f Faults) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(f.Status) == 0 {
		f.Status = []int{500, 502, 503, 429}
	}
	s.faults.Faults, s.faults.rng, s.faults.next = f, rand.New(rand.NewSource(f.Seed)), 0
}

// FailNext answers the next n requests with status (a 429 carries Retry-After: 1).
func (s *Server) FailNext(n, status int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.faults.failNext, s.faults.failNextCode = n, status
}

// FailBuild makes the next build started of template name ("" for any template) end in "error"
// with reason, at step "base" (where an image pull fails).
func (s *Server) FailBuild(name, reason string) { s.FailBuildAt(name, reason, "base") }

// FailBuildAt is FailBuild with the step the reason names ("base", a step number, "finalize" or "").
func (s *Server) FailBuildAt(name, reason, step string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.faults.failBuilds[name] = buildFailure{reason: reason, step: step}
}

// HangBuild makes builds of template name ("" for every template), started or not, stay
// "building" until ReleaseBuild.
func (s *Server) HangBuild(name string) {
	s.lock()
	defer s.mu.Unlock()
	s.faults.hung[name] = true
}

// ReleaseBuild lets hung builds of template name ("" for every template) go on: each ends once
// its duration has passed, and not before the release.
func (s *Server) ReleaseBuild(name string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.faults.hung, name)
	now := s.now()
	for _, t := range s.templates {
		if name != "" && t.alias != name {
			continue
		}
		for _, b := range t.builds {
			if b.status == statusBuilding {
				b.releasedAt = now
			}
		}
	}
}

// SetBuildDuration sets how long builds started from now on stay "building".
func (s *Server) SetBuildDuration(d time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.buildDuration = d
}

// DropConnectionsDuringBuild closes the connection of the next n status polls of template name.
func (s *Server) DropConnectionsDuringBuild(name string, n int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.faults.drops[name] = n
}

// InjectedFaults counts the requests answered with an injected error so far.
func (s *Server) InjectedFaults() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.faults.injected
}

func (f *faultState) takeBuildFailure(name string) (reason, step string, ok bool) {
	for _, key := range []string{name, ""} {
		if fail, found := f.failBuilds[key]; found {
			delete(f.failBuilds, key)
			return fail.reason, fail.step, true
		}
	}
	return "", "", false
}

func (f *faultState) hangs(name string) bool { return f.hung[name] || f.hung[""] }

func (f *faultState) takeDrop(name string) bool {
	if f.drops[name] == 0 {
		return false
	}
	f.drops[name]--
	return true
}

// injectFault answers r with an injected error, reporting whether it did.
func (s *Server) injectFault(w http.ResponseWriter, r *http.Request) bool {
	s.mu.Lock()
	latency, status, retryAfter := s.faults.Latency, 0, s.faults.RetryAfter
	switch {
	case s.faults.failNext > 0:
		s.faults.failNext--
		status = s.faults.failNextCode
		if retryAfter == 0 {
			retryAfter = time.Second
		}
	case s.faults.rng != nil && s.faults.rng.Float64() < s.faults.Rate:
		status = s.faults.Status[s.faults.next%len(s.faults.Status)]
		s.faults.next++
	}
	if status != 0 {
		s.faults.injected++
	}
	s.mu.Unlock()
	if latency > 0 {
		select { // a client that gives up frees the handler too
		case <-time.After(latency):
		case <-r.Context().Done():
			return true
		}
	}
	if status == 0 {
		return false
	}
	w.Header().Set(faultHeader, "true")
	if status == http.StatusTooManyRequests {
		w.Header().Set("Retry-After", strconv.Itoa(int((retryAfter+time.Second-1)/time.Second)))
	}
	writeError(w, status, http.StatusText(status)+" (injected)")
	return true
}

// dropConnection closes the TCP connection without a response, as a proxy or network fault would.
func dropConnection(w http.ResponseWriter) {
	if hj, ok := w.(http.Hijacker); ok {
		if conn, _, err := hj.Hijack(); err == nil {
			_ = conn.Close()
			return
		}
	}
	panic(http.ErrAbortHandler)
}
