package awsemu

import (
	"encoding/json"
	"net/http"
)

// apiError is an AWS service error as both protocols carry it: a code (X-Amzn-ErrorType and
// __type) and a message.
type apiError struct {
	status  int
	code    string
	message string
	// fields are members of the error's shape beyond its message (ValidationException's reason
	// and fieldList).
	fields map[string]any
}

func errMissingAuthentication() *apiError {
	return &apiError{status: http.StatusForbidden, code: "MissingAuthenticationTokenException", message: "Missing Authentication Token"}
}

func errIncompleteSignature(message string) *apiError {
	return &apiError{status: http.StatusForbidden, code: "IncompleteSignatureException", message: message}
}

func errUnrecognizedClient() *apiError {
	return &apiError{status: http.StatusForbidden, code: "UnrecognizedClientException", message: "The security token included in the request is invalid."}
}

func errInvalidSignature() *apiError {
	return &apiError{status: http.StatusForbidden, code: "InvalidSignatureException",
		message: "The request signature we calculated does not match the signature you provided. Check your AWS Secret Access Key and signing method. Consult the service documentation for details."}
}

func errAccessDenied(accountID, action string) *apiError {
	return &apiError{status: http.StatusForbidden, code: "AccessDeniedException",
		message: "User: arn:aws:iam::" + accountID + ":user/awsemu is not authorized to perform: " + action}
}

func errNotFound(message string) *apiError {
	return &apiError{status: http.StatusNotFound, code: "ResourceNotFoundException", message: message}
}

func errValidation(message string) *apiError {
	return &apiError{status: http.StatusBadRequest, code: "ValidationException", message: message}
}

// errFieldValidation is AgentCore's ValidationException for one member of the input that breaks
// its constraints (reason FieldValidationFailed, the member in fieldList).
func errFieldValidation(field, message string) *apiError {
	return &apiError{status: http.StatusBadRequest, code: "ValidationException", message: message, fields: map[string]any{
		"reason": "FieldValidationFailed", "fieldList": []map[string]string{{"name": field, "message": message}}}}
}

// write sends the error. awsJson1_1 services answer every client error, throttling included,
// with 400 (AWS Common Errors); server errors keep their 5xx.
func (a *apiError) write(w http.ResponseWriter, awsJSON bool) {
	status := a.status
	contentType := "application/json"
	if awsJSON {
		contentType = "application/x-amz-json-1.1"
		if status < http.StatusInternalServerError {
			status = http.StatusBadRequest
		}
	}
	w.Header().Set("Content-Type", contentType)
	w.Header().Set("X-Amzn-ErrorType", a.code)
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(a.body())
}

// body is the error's JSON document, as both protocols and AgentCore's exception events carry it.
func (a *apiError) body() map[string]any {
	body := map[string]any{"__type": a.code, "message": a.message}
	for name, value := range a.fields {
		body[name] = value
	}
	return body
}
