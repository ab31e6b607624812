package bedrock

import (
	"context"
	"errors"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/bedrockagentcorecontrol"
	"github.com/aws/aws-sdk-go-v2/service/bedrockagentcorecontrol/types"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders"
)

// ErrNotFound is returned (wrapped) by Lookup for a code interpreter that does not exist.
var ErrNotFound = errors.New("code interpreter not found")

// CodeInterpreter is what GetCodeInterpreter says about one interpreter.
type CodeInterpreter struct {
	ID            string
	ARN           string
	Name          string
	Status        types.CodeInterpreterStatus // CREATING, CREATE_FAILED, READY, DELETING, DELETE_FAILED, DELETED
	FailureReason string
}

// Ready tells whether sessions can start on the interpreter now.
func (c CodeInterpreter) Ready() bool { return c.Status == types.CodeInterpreterStatusReady }

// Lookup reads a code interpreter. A missing one is an error matching ErrNotFound; refused
// credentials are at builders.StageAPIAuth, anything else at builders.StageTemplateLookup.
// The built-in interpreter is answered without a request: it is READY by definition.
func (b *Builder) Lookup(ctx context.Context, id string) (CodeInterpreter, error) {
	if id == SystemCodeInterpreterID {
		return b.systemCodeInterpreter(), nil
	}
	if err := b.checkCredentials(ctx); err != nil {
		return CodeInterpreter{}, err
	}
	out, err := b.client.GetCodeInterpreter(ctx, &bedrockagentcorecontrol.GetCodeInterpreterInput{CodeInterpreterId: aws.String(id)})
	if err != nil {
		return CodeInterpreter{}, b.lookupError(id, err)
	}
	return CodeInterpreter{
		ID:            aws.ToString(out.CodeInterpreterId),
		ARN:           aws.ToString(out.CodeInterpreterArn),
		Name:          aws.ToString(out.Name),
		Status:        out.Status,
		FailureReason: aws.ToString(out.FailureReason),
	}, nil
}

// checkCredentials resolves credentials first, so that an empty default chain reads as an auth
// problem rather than a failed lookup. The SDK caches them, so later calls cost nothing.
func (b *Builder) checkCredentials(ctx context.Context) error {
	if b.credentials == nil {
		return builders.AtStage(builders.StageAPIAuth, errors.New("bedrock: no AWS credentials configured"))
	}
	if _, err := b.credentials.Retrieve(ctx); err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return builders.AtStage(builders.StageAPIAuth, fmt.Errorf("bedrock: no usable AWS credentials: %w", err))
	}
	return nil
}
