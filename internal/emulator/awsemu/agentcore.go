package awsemu

import (
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"
)

const codeInterpretersPath = "/code-interpreters/"

// SystemCodeInterpreterID is AWS's built-in interpreter, READY in every region.
const SystemCodeInterpreterID = "aws.codeinterpreter.v1"

type codeInterpreter struct {
	id            string
	status        string
	failureReason string
	createdAt     time.Time
}

// SeedCodeInterpreter makes a code interpreter exist with the given status (READY, CREATING,
// CREATE_FAILED, ...). Seeding an existing id replaces it.
func (e *Emulator) SeedCodeInterpreter(id, status string) {
	e.SeedFailedCodeInterpreter(id, status, "")
}

// SeedFailedCodeInterpreter is SeedCodeInterpreter with a failure reason (for CREATE_FAILED etc.).
func (e *Emulator) SeedFailedCodeInterpreter(id, status, failureReason string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.interpreters[id] = codeInterpreter{id: id, status: status, failureReason: failureReason, createdAt: e.now().UTC()}
}

func (e *Emulator) serveAgentCore(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	id, err := url.PathUnescape(strings.TrimPrefix(r.URL.EscapedPath(), codeInterpretersPath))
	emulated := r.Method == http.MethodGet && err == nil && id != "" && !strings.Contains(id, "/")
	operation := ""
	if emulated {
		operation = "GetCodeInterpreter"
	}
	req, apiErr := e.admit(r, "bedrock-agentcore", operation, body, false)
	var out any
	switch {
	case apiErr != nil:
	case !emulated:
		apiErr = &apiError{status: http.StatusNotFound, code: "UnknownOperationException", message: "awsemu does not emulate " + r.Method + " " + r.URL.Path}
	default:
		out, apiErr = e.getCodeInterpreter(id, req.Region)
	}
	e.respond(w, req, out, apiErr, false)
}

// getCodeInterpreterResponse is the GetCodeInterpreter output; restJson1 timestamps here are
// date-time strings, as the AgentCore model declares them.
type getCodeInterpreterResponse struct {
	CodeInterpreterArn   string               `json:"codeInterpreterArn"`
	CodeInterpreterID    string               `json:"codeInterpreterId"`
	Name                 string               `json:"name"`
	NetworkConfiguration networkConfiguration `json:"networkConfiguration"`
	Status               string               `json:"status"`
	FailureReason        string               `json:"failureReason,omitempty"`
	CreatedAt            string               `json:"createdAt"`
	LastUpdatedAt        string               `json:"lastUpdatedAt"`
}

type networkConfiguration struct {
	NetworkMode string `json:"networkMode"`
}

func (e *Emulator) getCodeInterpreter(id, region string) (any, *apiError) {
	if e.denies("GetCodeInterpreter") {
		return nil, errAccessDenied(e.accountID, "bedrock-agentcore:GetCodeInterpreter")
	}
	e.mu.Lock()
	ci, ok := e.interpreters[id]
	e.mu.Unlock()
	if !ok {
		return nil, errNotFound("Code interpreter " + id + " not found")
	}
	owner, name := e.accountID, id
	if id == SystemCodeInterpreterID {
		owner = "aws"
	} else if i := strings.LastIndex(id, "-"); i > 0 {
		name = id[:i] // custom ids are <name>-<10 chars>
	}
	created := ci.createdAt.Format(time.RFC3339Nano)
	return getCodeInterpreterResponse{
		CodeInterpreterArn:   "arn:aws:bedrock-agentcore:" + region + ":" + owner + ":code-interpreter/" + id,
		CodeInterpreterID:    id,
		Name:                 name,
		NetworkConfiguration: networkConfiguration{NetworkMode: "PUBLIC"},
		Status:               ci.status,
		FailureReason:        ci.failureReason,
		CreatedAt:            created,
		LastUpdatedAt:        created,
	}, nil
}
