package bedrock

import (
	"errors"
	"fmt"
	"net/http"

	awshttp "github.com/aws/aws-sdk-go-v2/aws/transport/http"
	"github.com/aws/aws-sdk-go-v2/service/bedrockagentcorecontrol/types"
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

// lookupError names the AWS error code and message and puts the error at the stage a user acts on.
func (b *Builder) lookupError(id string, err error) error {
	var notFound *types.ResourceNotFoundException
	if errors.As(err, &notFound) {
		return builders.AtStage(builders.StageTemplateLookup, fmt.Errorf("bedrock: code interpreter %q in %s: %w", id, b.region, ErrNotFound))
	}
	var apiErr smithy.APIError
	if !errors.As(err, &apiErr) {
		return builders.AtStage(builders.StageTemplateLookup, fmt.Errorf("bedrock: GetCodeInterpreter %q in %s: %w", id, b.region, err))
	}
	wrapped := fmt.Errorf("bedrock: GetCodeInterpreter %q in %s: %s: %s", id, b.region, apiErr.ErrorCode(), apiErr.ErrorMessage())
	var respErr *awshttp.ResponseError
	forbidden := errors.As(err, &respErr) && respErr.HTTPStatusCode() == http.StatusForbidden
	if authErrorCodes[apiErr.ErrorCode()] || forbidden {
		return builders.AtStage(builders.StageAPIAuth, wrapped)
	}
	return builders.AtStage(builders.StageTemplateLookup, wrapped)
}
