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

// lookupError puts GetCodeInterpreter's failure at the stage a user acts on: a missing
// interpreter (wrapping ErrNotFound) and anything but refused credentials at StageTemplateLookup.
func (b *Builder) lookupError(id string, err error) error {
	return builders.AtStageIfBare(builders.StageTemplateLookup, b.interpreterError("GetCodeInterpreter", id, err))
}

// interpreterError is apiError, but a missing interpreter is ErrNotFound at StageTemplateLookup.
func (b *Builder) interpreterError(operation, id string, err error) error {
	var apiErr smithy.APIError
	if errors.As(err, &apiErr) && apiErr.ErrorCode() == "ResourceNotFoundException" {
		return builders.AtStage(builders.StageTemplateLookup, fmt.Errorf("bedrock: code interpreter %q in %s: %w", id, b.region, ErrNotFound))
	}
	return b.apiError(operation, id, err)
}

// apiError names the operation, the code interpreter, and AWS's error code and message; refused
// credentials are at StageAPIAuth, anything else has no stage, for the caller to decide.
func (b *Builder) apiError(operation, id string, err error) error {
	var apiErr smithy.APIError
	if !errors.As(err, &apiErr) {
		return fmt.Errorf("bedrock: %s %q in %s: %w", operation, id, b.region, err)
	}
	wrapped := fmt.Errorf("bedrock: %s %q in %s: %s: %s", operation, id, b.region, apiErr.ErrorCode(), apiErr.ErrorMessage())
	var respErr *awshttp.ResponseError
	forbidden := errors.As(err, &respErr) && respErr.HTTPStatusCode() == http.StatusForbidden
	if authErrorCodes[apiErr.ErrorCode()] || forbidden {
		return builders.AtStage(builders.StageAPIAuth, wrapped)
	}
	return wrapped
}
