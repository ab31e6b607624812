package awsemu

import (
	"encoding/json"
	"net/http"
)

// admit is what every API request to the endpoint of service (its SigV4 signing name) goes through
// before its operation runs: an armed fault answers first (an overloaded endpoint fails before it
// authenticates anything), then SigV4 authentication.
func (e *Emulator) admit(r *http.Request, service, operation string, body []byte, awsJSON bool) (Request, *apiError) {
	claimed, _ := parseSigV4(r.Header.Get("Authorization")) // recorded even when refused
	req := Request{Operation: operation, Method: r.Method, Path: r.URL.Path, Body: string(body),
		AccessKeyID: claimed.accessKeyID, Region: claimed.region, Service: claimed.service}
	_, apiErr := e.authenticate(r, body, service)
	if apiErr != nil {
		req.Body = "" // the body of a request anyone could send is not kept
	}
	if fault := e.takeFault(operation, false); fault != nil {
		return req, fault.apiError(awsJSON, body)
	}
	return req, apiErr
}

// respond records the request and sends out, or apiErr, in the API's protocol.
func (e *Emulator) respond(w http.ResponseWriter, req Request, out any, apiErr *apiError, awsJSON bool) {
	if apiErr != nil {
		req.ErrorCode = apiErr.code
		e.record(req)
		apiErr.write(w, awsJSON)
		return
	}
	e.record(req)
	contentType := "application/json"
	if awsJSON {
		contentType = "application/x-amz-json-1.1"
	}
	w.Header().Set("Content-Type", contentType)
	_ = json.NewEncoder(w).Encode(out)
}
