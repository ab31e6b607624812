package awsemu

import (
	"crypto/rand"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/emulator/sandboxos"
)

// Code interpreter sessions (the AgentCore data plane). A session ends when it is stopped or when
// its sessionTimeoutSeconds have passed on the emulator's clock (Options.Now), whether or not it
// was used, as AgentCore's is a time to live; an ended session answers no command.

// DefaultSessionTimeout is AgentCore's sessionTimeoutSeconds when a start request gives none.
const DefaultSessionTimeout = 900 * time.Second

// MaxSessionTimeout is the longest sessionTimeoutSeconds AgentCore accepts (8 hours).
const MaxSessionTimeout = 28800 * time.Second

type codeInterpreterSession struct {
	id            string
	interpreterID string
	name          string
	clientToken   string
	timeout       time.Duration
	createdAt     time.Time
	stopped       bool

	run     sync.Mutex // one command at a time, as one shell
	machine *sandboxos.Machine
}

func (s *codeInterpreterSession) expiresAt() time.Time { return s.createdAt.Add(s.timeout) }

func (s *codeInterpreterSession) live(now time.Time) bool {
	return !s.stopped && now.Before(s.expiresAt())
}

// CodeInterpreterSession is a live session, as CodeInterpreterSessions and
// GET /_emulator/code-interpreter-sessions list it.
type CodeInterpreterSession struct {
	SessionID         string    `json:"sessionId"`
	CodeInterpreterID string    `json:"codeInterpreterIdentifier"`
	Name              string    `json:"name"`
	CreatedAt         time.Time `json:"createdAt"`
	ExpiresAt         time.Time `json:"expiresAt"`
}

// CodeInterpreterSessions lists the sessions that are live now (neither stopped nor expired),
// oldest first: a test asserts that none outlives what started it.
func (e *Emulator) CodeInterpreterSessions() []CodeInterpreterSession {
	e.mu.Lock()
	defer e.mu.Unlock()
	now := e.now()
	var live []CodeInterpreterSession
	for _, s := range e.sessions {
		if s.live(now) {
			live = append(live, CodeInterpreterSession{SessionID: s.id, CodeInterpreterID: s.interpreterID, Name: s.name,
				CreatedAt: s.createdAt, ExpiresAt: s.expiresAt()})
		}
	}
	slices.SortFunc(live, func(a, b CodeInterpreterSession) int { return a.CreatedAt.Compare(b.CreatedAt) })
	return live
}

// startSession starts a session of a READY interpreter, or returns the one an earlier request with
// the same client token started (AgentCore's idempotency: a retried start starts nothing new).
func (e *Emulator) startSession(interpreterID, name, clientToken string, timeout time.Duration) (*codeInterpreterSession, *apiError) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if s, ok := e.sessionByToken(clientToken); ok {
		if s.interpreterID != interpreterID || s.name != name || s.timeout != timeout {
			return nil, &apiError{status: 400, code: "ValidationException", message: "The client token was used with other parameters",
				fields: map[string]any{"reason": "IdempotentParameterMismatchException"}}
		}
		return s, nil
	}
	if apiErr := e.interpreterReady(interpreterID); apiErr != nil {
		return nil, apiErr
	}
	e.sweepSessions()
	s := &codeInterpreterSession{id: newSessionID(), interpreterID: interpreterID, name: name, clientToken: clientToken,
		timeout: timeout, createdAt: e.now().UTC(), machine: sandboxos.Boot(sandboxos.AgentCoreCodeInterpreter())}
	e.sessions[s.id] = s
	return s, nil
}

// sessionByToken is the session a client token started; e.mu is held.
func (e *Emulator) sessionByToken(token string) (*codeInterpreterSession, bool) {
	if token == "" {
		return nil, false
	}
	for _, s := range e.sessions {
		if s.clientToken == token {
			return s, true
		}
	}
	return nil, false
}

// interpreterReady refuses a start on an interpreter that does not exist or is not READY; the
// built-in one always is. e.mu is held.
func (e *Emulator) interpreterReady(id string) *apiError {
	if id == SystemCodeInterpreterID {
		return nil
	}
	ci, ok := e.interpreters[id]
	switch {
	case !ok:
		return errNotFound("Code interpreter " + id + " not found")
	case ci.status != "READY":
		return errValidation("Code interpreter " + id + " is " + ci.status + ", not READY: sessions start on a READY code interpreter only")
	}
	return nil
}

// liveSession is the interpreter's session id while it is live; an unknown, stopped or expired
// one is not found.
func (e *Emulator) liveSession(interpreterID, sessionID string) (*codeInterpreterSession, *apiError) {
	e.mu.Lock()
	defer e.mu.Unlock()
	s, ok := e.sessions[sessionID]
	if !ok || s.interpreterID != interpreterID || !s.live(e.now()) {
		return nil, errNotFound("Session " + sessionID + " not found for code interpreter " + interpreterID + ": it never started, was stopped or timed out")
	}
	return s, nil
}

// stopSession ends a live session; sweepSessions forgets it.
func (e *Emulator) stopSession(interpreterID, sessionID string) (*codeInterpreterSession, *apiError) {
	s, apiErr := e.liveSession(interpreterID, sessionID)
	if apiErr != nil {
		return nil, apiErr
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	s.stopped = true
	return s, nil
}

// sweepSessions forgets the machines of ended sessions, so a long-running emulator keeps only
// what live sessions wrote. e.mu is held.
func (e *Emulator) sweepSessions() {
	now := e.now()
	for id, s := range e.sessions {
		if !s.live(now) {
			delete(e.sessions, id)
		}
	}
}

// newSessionID is an id of AgentCore's session id pattern ([0-9a-zA-Z]{1,40}): 26 upper-case
// letters and digits, as its ULID-like ids.
func newSessionID() string {
	const alphabet = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
	b := make([]byte, 26)
	_, _ = rand.Read(b)
	var id strings.Builder
	for _, c := range b {
		id.WriteByte(alphabet[int(c)%len(alphabet)])
	}
	return id.String()
}
