package bedrock

import (
	"errors"
	"fmt"
	"net/http"

	awshttp "github.com/aws/aws-sdk-go-v2/aws/transport/http"
	"github.com/aws/smithy-go"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders"
)

// authErrorCodes are the AWS error codes that mean the caller's credentials or permissions were refused.
var authErrorCodes = map[string]bool{
	"AccessDeniedException":               true,
	"UnrecognizedClientException":         true,
	"InvalidSignatureException":           true,
	"SignatureDoesNotMatch":               true,
	"InvalidClientTokenId":                true,
	"ExpiredTokenException":               true,
	"ExpiredToken":                        true,
	"MissingAuthenticationTokenException": true,
	"UnauthorizedException":               true,
}

// lookupError is apiError for GetCodeInterpreter.
func (b *Builder) lookupError(id string, err error) error {
	return b.apiError("GetCodeInterpreter", id, err, builders.StageTemplateLookup)
}

// apiError names the operation, the code interpreter, and AWS's error code and message, and puts
// the error at the stage a user acts on: refused credentials at StageAPIAuth, a missing
// interpreter (wrapping ErrNotFound) and anything else at stage ("": none, for the caller to
// decide).
func (b *Builder) apiError(operation, id string, err error, stage builders.Stage) error {
	at := func(err error) error {
		if stage == "" {
			return err
		}
		return builders.AtStage(stage, err)
	}
	var apiErr smithy.APIError
	if !errors.As(err, &apiErr) {
		return at(fmt.Errorf("bedrock: %s %q in %s: %w", operation, id, b.region, err))
	}
	if apiErr.ErrorCode() == "ResourceNotFoundException" && stage == builders.StageTemplateLookup {
		return at(fmt.Errorf("bedrock: code interpreter %q in %s: %w", id, b.region, ErrNotFound))
	}
	wrapped := fmt.Errorf("bedrock: %s %q in %s: %s: %s", operation, id, b.region, apiErr.ErrorCode(), apiErr.ErrorMessage())
	var respErr *awshttp.ResponseError
	forbidden := errors.As(err, &respErr) && respErr.HTTPStatusCode() == http.StatusForbidden
	if authErrorCodes[apiErr.ErrorCode()] || forbidden {
		return builders.AtStage(builders.StageAPIAuth, wrapped)
	}
	return at(wrapped)
}
