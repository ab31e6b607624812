package provider

import (
	"context"
	"errors"
	"fmt"
	"net"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/types"
)

// defaultRequestTimeout bounds each API request and each refresh or data source read when the
// provider block sets no request_timeout.
const defaultRequestTimeout = 2 * time.Minute

// parseRequestTimeout reads the provider's request_timeout: a positive Go duration ("30s", "2m").
func parseRequestTimeout(v types.String) (time.Duration, error) {
	if v.IsNull() || v.IsUnknown() || v.ValueString() == "" {
		return defaultRequestTimeout, nil
	}
	d, err := time.ParseDuration(v.ValueString())
	if err != nil || d <= 0 {
		return 0, fmt.Errorf("%q is not a positive duration such as \"30s\" or \"2m\"", v.ValueString())
	}
	return d, nil
}

// readContext bounds a refresh or data source read by the provider's request_timeout.
func (b *backendSet) readContext(ctx context.Context) (context.Context, context.CancelFunc) {
	return context.WithTimeout(ctx, b.requestTimeout)
}

// readError names the template and the backend when a read ran out of request_timeout.
func (b *backendSet) readError(ctx context.Context, backend, templateID string, err error) error {
	var netErr net.Error
	if errors.Is(ctx.Err(), context.DeadlineExceeded) || errors.Is(err, context.DeadlineExceeded) || (errors.As(err, &netErr) && netErr.Timeout()) {
		return fmt.Errorf("reading template %q on %s: no answer within request_timeout (%s); the backend is stalled or "+
			"unreachable, or raise request_timeout in the provider block: %w", templateID, backend, b.requestTimeout, err)
	}
	return err
}
