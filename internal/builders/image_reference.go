package builders

import (
	"fmt"

	"github.com/distribution/reference"
)

// ValidateImageReference checks a container image reference with the same parser Docker uses
// ("python:3.11", "ghcr.io/org/img@sha256:...", "123.dkr.ecr.us-east-1.amazonaws.com/x:1").
func ValidateImageReference(image string) error {
	if _, err := reference.ParseNormalizedNamed(image); err != nil {
		return fmt.Errorf("%q is not a valid image reference: %v", image, err)
	}
	return nil
}
