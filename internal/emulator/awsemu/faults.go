package awsemu

import (
	"errors"
	"net/http"
)

// Fault makes requests fail before they are handled, as an overloaded or failing AWS endpoint does:
// nothing behind a faulted request happens. The JSON form is what POST /_emulator/faults takes.
type Fault struct {
	Count  int `json:"count"`  // how many requests fail
	Status int `json:"status"` // 429 (throttling) or 5xx
	// Code is the error code sent; empty picks the one AWS sends for Status (see faultCode).
	Code string `json:"code,omitempty"`
	// Operation limits the fault to one operation ("GetAuthorizationToken", "GetCodeInterpreter").
	Operation string `json:"operation,omitempty"`
	// EchoBody quotes the request body in the error message, as AWS validation messages quote
	// input: a test can then check that a client keeps such messages out of its logs.
	EchoBody bool `json:"echoBody,omitempty"`
	// InStream sends the error inside InvokeCodeInterpreter's event stream, as an exception event
	// after a 200 answer, instead of answering with it: what AgentCore does for a failure while
	// the tool runs. The command does not run. Operation must be InvokeCodeInterpreter.
	InStream bool `json:"inStream,omitempty"`
}

// InjectFault arms f. Faults are consumed in the order they were armed.
func (e *Emulator) InjectFault(f Fault) error {
	if f.Count < 1 || (f.Status != http.StatusTooManyRequests && (f.Status < 500 || f.Status > 599)) {
		return errors.New("awsemu: a fault needs count >= 1 and status 429 or 5xx")
	}
	if f.InStream && f.Operation != opInvokeCodeInterpreter {
		return errors.New("awsemu: only InvokeCodeInterpreter answers with an event stream: an inStream fault needs that operation")
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	e.faults = append(e.faults, &f)
	return nil
}

// takeFault consumes one armed fault that applies to operation, answered (inStream false) or
// sent in its event stream (inStream true), if any.
func (e *Emulator) takeFault(operation string, inStream bool) *Fault {
	e.mu.Lock()
	defer e.mu.Unlock()
	for i, f := range e.faults {
		if (f.Operation != "" && f.Operation != operation) || f.InStream != inStream {
			continue
		}
		taken := *f
		if f.Count--; f.Count == 0 {
			e.faults = append(e.faults[:i], e.faults[i+1:]...)
		}
		return &taken
	}
	return nil
}

// apiError is the error the fault answers with. Codes follow AWS's Common Errors (ThrottlingException,
// ServiceUnavailable 503) and each API's modeled server error for 500: ECR's ServerException,
// AgentCore's InternalServerException. AgentCore models ThrottlingException as 429; the awsJson1_1
// ECR API sends it as 400 (apiError.write).
func (f *Fault) apiError(awsJSON bool, body []byte) *apiError {
	code := f.Code
	switch {
	case code != "":
	case f.Status == http.StatusTooManyRequests:
		code = "ThrottlingException"
	case f.Status == http.StatusInternalServerError && awsJSON:
		code = "ServerException"
	case f.Status == http.StatusInternalServerError:
		code = "InternalServerException"
	default:
		code = "ServiceUnavailable"
	}
	message := http.StatusText(f.Status) + " (injected by awsemu)"
	if f.EchoBody {
		message += "; request body: " + string(body)
	}
	return &apiError{status: f.Status, code: code, message: message}
}
