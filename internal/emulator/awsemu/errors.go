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
}

func errMissingAuthentication() *apiError {
	return &apiError{http.StatusForbidden, "MissingAuthenticationTokenException", "Missing Authentication Token"}
}

func errIncompleteSignature(message string) *apiError {
	return &apiError{http.StatusForbidden, "IncompleteSignatureException", message}
}

func errUnrecognizedClient() *apiError {
	return &apiError{http.StatusForbidden, "UnrecognizedClientException", "The security token included in the request is invalid."}
}

func errInvalidSignature() *apiError {
	return &apiError{http.StatusForbidden, "InvalidSignatureException",
		"The request signature we calculated does not match the signature you provided. Check your AWS Secret Access Key and signing method. Consult the service documentation for details."}
}

func errAccessDenied(accountID, action string) *apiError {
	return &apiError{http.StatusForbidden, "AccessDeniedException",
		"User: arn:aws:iam::" + accountID + ":user/awsemu is not authorized to perform: " + action}
}

func errNotFound(message string) *apiError {
	return &apiError{http.StatusNotFound, "ResourceNotFoundException", message}
}

func errValidation(message string) *apiError {
	return &apiError{http.StatusBadRequest, "ValidationException", message}
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
	_ = json.NewEncoder(w).Encode(map[string]string{"__type": a.code, "message": a.message})
}
