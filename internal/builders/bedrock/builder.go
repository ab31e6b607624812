package bedrock

import (
	"context"
	"errors"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/bedrockagentcore"
	"github.com/aws/aws-sdk-go-v2/service/bedrockagentcorecontrol"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders"
)

// Builder is the Bedrock AgentCore backend. Build it with New.
type Builder struct {
	client      *bedrockagentcorecontrol.Client
	data        *bedrockagentcore.Client // code interpreter sessions (sandbox_starter.go)
	credentials aws.CredentialsProvider
	region      string
}

var _ builders.Builder = (*Builder)(nil)

// Region is the AWS region the builder looks code interpreters up in.
func (b *Builder) Region() string { return b.region }

const unsupportedDetail = "AgentCore code interpreters have no custom templates: no AgentCore API takes an image, " +
	"packages or CPU/memory sizing. Create the code interpreter itself (for example with aws_bedrockagentcore_code_interpreter, " +
	"or use the built-in aws.codeinterpreter.v1) and pass its id as template_id; install packages per session " +
	"(executeCommand) or mount a filesystem that already holds them"

// Build never builds. It returns UNSUPPORTED with a nil error, saying what state the named code
// interpreter is in when that can be told, since that is usually why Ensure got this far.
func (b *Builder) Build(ctx context.Context, spec builders.TemplateSpec, _ builders.Observer) (builders.TemplateBuildResult, error) {
	return builders.Unsupported(unsupportedDetail + b.statusNote(ctx, spec.TemplateID) + "."), nil
}

// IsUsable tells whether the code interpreter exists and is READY. A missing one is not an error.
func (b *Builder) IsUsable(ctx context.Context, templateID string) (bool, error) {
	ci, err := b.Lookup(ctx, templateID)
	if errors.Is(err, ErrNotFound) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	return ci.Ready(), nil
}

// statusNote describes the interpreter's state for the UNSUPPORTED detail; a failed lookup adds nothing.
func (b *Builder) statusNote(ctx context.Context, id string) string {
	if id == "" {
		return ""
	}
	ci, err := b.Lookup(ctx, id)
	switch {
	case errors.Is(err, ErrNotFound):
		return fmt.Sprintf("; code interpreter %q does not exist in %s", id, b.region)
	case err != nil:
		return ""
	case ci.FailureReason != "":
		return fmt.Sprintf("; code interpreter %q is %s in %s: %s", id, ci.Status, b.region, ci.FailureReason)
	default:
		return fmt.Sprintf("; code interpreter %q is %s in %s", id, ci.Status, b.region)
	}
}
