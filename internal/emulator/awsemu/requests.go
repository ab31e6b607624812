package awsemu

// Request is what the emulator recorded about one request, authenticated or not.
// GET /_emulator/requests lists them as JSON.
type Request struct {
	Operation   string `json:"operation"` // "GetAuthorizationToken", "GetCodeInterpreter"
	Method      string `json:"method"`
	Path        string `json:"path"`
	Body        string `json:"body"`
	AccessKeyID string `json:"accessKeyId"` // from the SigV4 credential scope
	Region      string `json:"region"`      // from the SigV4 credential scope
	Service     string `json:"service"`     // the signing name from the credential scope ("ecr", "bedrock-agentcore")
	ErrorCode   string `json:"errorCode"`   // the AWS error code answered, empty on success
}

// Requests returns every request received so far, in order.
func (e *Emulator) Requests() []Request {
	e.mu.Lock()
	defer e.mu.Unlock()
	return append([]Request(nil), e.requests...)
}

func (e *Emulator) record(req Request) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.requests = append(e.requests, req)
}

// denies tells whether DenyAccess was called for the operation.
func (e *Emulator) denies(operation string) bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.denied[operation]
}
