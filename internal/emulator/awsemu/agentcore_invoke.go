package awsemu

import (
	"encoding/json"
	"net/http"
	"strings"
	"time"
	"unicode"

	"github.com/aws/aws-sdk-go-v2/aws/protocol/eventstream"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/emulator/sandboxos"
)

// InvokeCodeInterpreter answers 200 with an AWS event stream (application/vnd.amazon.eventstream)
// as soon as the request is accepted, then one "result" event when the tool has run, or an
// exception event (":message-type" exception, ":exception-type" the CodeInterpreterStreamOutput
// member, such as throttlingException) when it failed while running (Fault.InStream). Requests it
// refuses before running anything (signature, validation, an unknown session) are answered with
// an ordinary restJson1 error instead.
//
// Only executeCommand is emulated: it runs arguments.command with the image's shell
// (sandboxos.AgentCoreCodeInterpreter) in the session's machine, so what one command writes is
// there for the next. Its result holds the command's stdout and stderr apart in structuredContent
// with its exitCode and executionTime (milliseconds), isError when the exit code is not 0, and one
// text content block with stdout followed by stderr: the shapes of the AgentCore API reference
// (CodeInterpreterResult, ToolResultStructuredContent); how AgentCore splits a very large output
// into events is not documented, so one result event carries all of it.

// toolNames are the names InvokeCodeInterpreter takes (ToolName in the AgentCore model).
var toolNames = []string{"executeCode", "executeCommand", "readFiles", "listFiles", "removeFiles", "writeFiles",
	"startCommandExecution", "getTask", "stopTask"}

type invokeRequest struct {
	Name      string `json:"name"`
	Arguments struct {
		Command *string `json:"command"`
	} `json:"arguments"`
}

type contentBlock struct {
	Type string `json:"type"`
	Text string `json:"text"`
}

type structuredContent struct {
	Stdout        string  `json:"stdout"`
	Stderr        string  `json:"stderr"`
	ExitCode      int     `json:"exitCode"`
	ExecutionTime float64 `json:"executionTime"`
	TaskStatus    string  `json:"taskStatus"`
}

type codeInterpreterResult struct {
	Content           []contentBlock    `json:"content"`
	StructuredContent structuredContent `json:"structuredContent"`
	IsError           bool              `json:"isError"`
}

func (e *Emulator) invokeCodeInterpreter(w http.ResponseWriter, r *http.Request, req Request, interpreterID string, body []byte) {
	command, apiErr := parseExecuteCommand(body)
	if apiErr != nil {
		e.respond(w, req, nil, apiErr, false)
		return
	}
	sessionID := r.Header.Get(sessionIDHeader)
	if sessionID == "" {
		e.respond(w, req, nil, errFieldValidation("sessionId", "sessionId is required"), false)
		return
	}
	session, apiErr := e.liveSession(interpreterID, sessionID)
	if apiErr != nil {
		e.respond(w, req, nil, apiErr, false)
		return
	}
	fault := e.takeFault(opInvokeCodeInterpreter, true)
	if fault != nil {
		req.ErrorCode = fault.apiError(false, body).code
	}
	e.record(req)
	w.Header().Set("Content-Type", "application/vnd.amazon.eventstream")
	w.Header().Set(sessionIDHeader, sessionID)
	w.WriteHeader(http.StatusOK)
	if f, ok := w.(http.Flusher); ok {
		f.Flush() // the answer starts before the command ends, as a stream does
	}
	stream := eventStream{w: w, enc: eventstream.NewEncoder()}
	if fault != nil {
		stream.exception(fault.apiError(false, body))
		return
	}
	if result, ok := session.execute(r, command, e.commandTakes()); ok {
		stream.result(result)
	}
}

// parseExecuteCommand reads an executeCommand invocation, refusing what AgentCore would and what
// the emulator does not run.
func parseExecuteCommand(body []byte) (string, *apiError) {
	var in invokeRequest
	if err := json.Unmarshal(body, &in); err != nil {
		return "", &apiError{status: http.StatusBadRequest, code: "ValidationException", message: "Could not parse the request body: " + err.Error(),
			fields: map[string]any{"reason": "CannotParse"}}
	}
	known := false
	for _, name := range toolNames {
		known = known || name == in.Name
	}
	switch {
	case !known:
		return "", errFieldValidation("name", "name must be one of "+strings.Join(toolNames, ", "))
	case in.Name != "executeCommand":
		return "", &apiError{status: http.StatusNotFound, code: "UnknownOperationException", message: "awsemu emulates the executeCommand tool only, not " + in.Name}
	case in.Arguments.Command == nil || strings.TrimSpace(*in.Arguments.Command) == "":
		return "", errFieldValidation("arguments.command", "executeCommand needs arguments.command")
	}
	return *in.Arguments.Command, nil
}

// execute runs command in the session's machine, one command at a time, taking at least
// duration (SetCommandDuration); ok is false when the client left before it ended.
func (s *codeInterpreterSession) execute(r *http.Request, command string, duration time.Duration) (result codeInterpreterResult, ok bool) {
	s.run.Lock()
	defer s.run.Unlock()
	started := time.Now()
	select {
	case <-time.After(duration):
	case <-r.Context().Done():
		return codeInterpreterResult{}, false
	}
	res := s.machine.Run(r.Context(), command, sandboxos.Process{})
	return codeInterpreterResult{
		Content: []contentBlock{{Type: "text", Text: res.Stdout + res.Stderr}},
		StructuredContent: structuredContent{Stdout: res.Stdout, Stderr: res.Stderr, ExitCode: res.ExitCode,
			ExecutionTime: float64(time.Since(started).Microseconds()) / 1000, TaskStatus: "completed"},
		IsError: res.ExitCode != 0,
	}, true
}

// SetCommandDuration makes every command run in a code interpreter session take d (real time)
// before its result event, as a long command does: its answer starts at once, and a client that
// leaves first ends it (sandboxos's sleep returns at once, so no command can take time by itself).
func (e *Emulator) SetCommandDuration(d time.Duration) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.commandDuration = d
}

func (e *Emulator) commandTakes() time.Duration {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.commandDuration
}

// eventStream writes AWS event stream messages to an answer, flushing each.
type eventStream struct {
	w   http.ResponseWriter
	enc *eventstream.Encoder
}

func (s eventStream) result(result codeInterpreterResult) {
	payload, _ := json.Marshal(result)
	var msg eventstream.Message
	msg.Headers.Set(":event-type", eventstream.StringValue("result"))
	msg.Headers.Set(":content-type", eventstream.StringValue("application/json"))
	msg.Headers.Set(":message-type", eventstream.StringValue("event"))
	msg.Payload = payload
	s.send(msg)
}

// exception sends apiErr as the stream's exception event of its member name (ThrottlingException
// is throttlingException).
func (s eventStream) exception(apiErr *apiError) {
	payload, _ := json.Marshal(map[string]any{"message": apiErr.message})
	member := []rune(apiErr.code)
	member[0] = unicode.ToLower(member[0])
	var msg eventstream.Message
	msg.Headers.Set(":exception-type", eventstream.StringValue(string(member)))
	msg.Headers.Set(":content-type", eventstream.StringValue("application/json"))
	msg.Headers.Set(":message-type", eventstream.StringValue("exception"))
	msg.Payload = payload
	s.send(msg)
}

func (s eventStream) send(msg eventstream.Message) {
	if err := s.enc.Encode(s.w, msg); err != nil {
		return // the client went away
	}
	if f, ok := s.w.(http.Flusher); ok {
		f.Flush()
	}
}
