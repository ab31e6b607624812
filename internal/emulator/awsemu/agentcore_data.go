package awsemu

import (
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// The AgentCore data plane (bedrock-agentcore.<region>.amazonaws.com, restJson1, signing name
// bedrock-agentcore): code interpreter sessions and the executeCommand tool. AWS serves it on
// another host than the control plane (bedrock-agentcore-control), so the emulator serves it on a
// listener of its own (DataPlaneURL); a data-plane request sent to the control plane's URL, or the
// other way round, finds no operation there, as it would at AWS.

const (
	opStartCodeInterpreterSession = "StartCodeInterpreterSession"
	opInvokeCodeInterpreter       = "InvokeCodeInterpreter"
	opStopCodeInterpreterSession  = "StopCodeInterpreterSession"
	sessionIDHeader               = "X-Amzn-Code-Interpreter-Session-Id"
)

// dataPlaneOperation names the operation at method and path, and the interpreter id in the path.
func dataPlaneOperation(r *http.Request) (operation, interpreterID string) {
	rest, ok := strings.CutPrefix(r.URL.EscapedPath(), codeInterpretersPath)
	if !ok {
		return "", ""
	}
	escapedID, action, _ := strings.Cut(rest, "/")
	id, err := url.PathUnescape(escapedID)
	if err != nil || id == "" {
		return "", ""
	}
	switch {
	case r.Method == http.MethodPut && action == "sessions/start":
		return opStartCodeInterpreterSession, id
	case r.Method == http.MethodPost && action == "tools/invoke":
		return opInvokeCodeInterpreter, id
	case r.Method == http.MethodPut && action == "sessions/stop":
		return opStopCodeInterpreterSession, id
	}
	return "", ""
}

// serveDataPlane answers the data plane's listener: its control paths, or an operation.
func (e *Emulator) serveDataPlane(w http.ResponseWriter, r *http.Request) {
	if isControl(r) {
		e.control.ServeHTTP(w, r)
		return
	}
	body, _ := io.ReadAll(r.Body)
	operation, interpreterID := dataPlaneOperation(r)
	req, apiErr := e.admit(r, "bedrock-agentcore", operation, body, false)
	if apiErr == nil && operation == "" {
		apiErr = &apiError{status: http.StatusNotFound, code: "UnknownOperationException",
			message: "awsemu's AgentCore data plane does not emulate " + r.Method + " " + r.URL.Path}
	}
	if apiErr == nil && e.denies(operation) {
		apiErr = errAccessDenied(e.accountID, "bedrock-agentcore:"+operation)
	}
	if apiErr != nil {
		e.respond(w, req, nil, apiErr, false)
		return
	}
	switch operation {
	case opStartCodeInterpreterSession:
		out, apiErr := e.startCodeInterpreterSession(interpreterID, body)
		e.respond(w, req, out, apiErr, false)
	case opStopCodeInterpreterSession:
		out, apiErr := e.stopCodeInterpreterSession(interpreterID, r.URL.Query().Get("sessionId"))
		e.respond(w, req, out, apiErr, false)
	case opInvokeCodeInterpreter:
		e.invokeCodeInterpreter(w, r, req, interpreterID, body)
	}
}

type startSessionRequest struct {
	Name                  *string `json:"name"`
	SessionTimeoutSeconds *int    `json:"sessionTimeoutSeconds"`
	ClientToken           string  `json:"clientToken"`
}

type sessionResponse struct {
	CodeInterpreterIdentifier string `json:"codeInterpreterIdentifier"`
	SessionID                 string `json:"sessionId"`
	CreatedAt                 string `json:"createdAt,omitempty"`
	LastUpdatedAt             string `json:"lastUpdatedAt,omitempty"`
}

// startCodeInterpreterSession checks the input against the AgentCore API reference's constraints
// (name 1 to 100 characters, sessionTimeoutSeconds 1 to 28800) and starts a session.
func (e *Emulator) startCodeInterpreterSession(interpreterID string, body []byte) (any, *apiError) {
	var in startSessionRequest
	if len(body) > 0 {
		if err := json.Unmarshal(body, &in); err != nil {
			return nil, &apiError{status: http.StatusBadRequest, code: "ValidationException", message: "Could not parse the request body: " + err.Error(),
				fields: map[string]any{"reason": "CannotParse"}}
		}
	}
	timeout := DefaultSessionTimeout
	if in.SessionTimeoutSeconds != nil {
		if n := *in.SessionTimeoutSeconds; n < 1 || time.Duration(n)*time.Second > MaxSessionTimeout {
			return nil, errFieldValidation("sessionTimeoutSeconds", "sessionTimeoutSeconds must be between 1 and 28800")
		}
		timeout = time.Duration(*in.SessionTimeoutSeconds) * time.Second
	}
	name := ""
	if in.Name != nil {
		if n := len([]rune(*in.Name)); n < 1 || n > 100 {
			return nil, errFieldValidation("name", "name must be 1 to 100 characters long")
		}
		name = *in.Name
	}
	s, apiErr := e.startSession(interpreterID, name, in.ClientToken, timeout)
	if apiErr != nil {
		return nil, apiErr
	}
	return sessionResponse{CodeInterpreterIdentifier: interpreterID, SessionID: s.id, CreatedAt: s.createdAt.Format(time.RFC3339Nano)}, nil
}

func (e *Emulator) stopCodeInterpreterSession(interpreterID, sessionID string) (any, *apiError) {
	if sessionID == "" {
		return nil, errFieldValidation("sessionId", "sessionId is required")
	}
	s, apiErr := e.stopSession(interpreterID, sessionID)
	if apiErr != nil {
		return nil, apiErr
	}
	return sessionResponse{CodeInterpreterIdentifier: interpreterID, SessionID: s.id, LastUpdatedAt: e.now().UTC().Format(time.RFC3339Nano)}, nil
}
