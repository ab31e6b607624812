package builders

import "testing"

// TestIsImagePullFailure: the reasons E2B's orchestrator gives a build whose image it could not
// pull (e2b-dev/infra core/oci/oci.go) and OpenSandbox's pull errors are IMAGE_PULL; its other
// build failures, those of a base template included, are not.
func TestIsImagePullFailure(t *testing.T) {
	for _, text := range []string{
		"image 'python:3.99' not found: the image or tag does not exist in the registry",
		"repository 'ghcr.io/acme/nope:1' not found: verify the image name is correct",
		"access denied to 'ghcr.io/acme/private:1': authentication required or insufficient permissions",
		"access denied to 'ghcr.io/acme/private:1': you don't have permission to pull this image",
		"failed to pull image 'ghcr.io/acme/app:1': registry returned status code 502",
		"failed to pull image 'ghcr.io/acme/app:1': unable to retrieve image from registry",
		"failed to pull build image from registry",
		"invalid image reference 'Not A Ref': could not parse reference: Not A Ref",
		"failed to inspect image 'ghcr.io/acme/app:1': unable to retrieve image metadata from registry",
		`image architecture "arm64" does not match expected "amd64"`,
		"Build failed: image 'python:3.99' not found: the image or tag does not exist in the registry",
		"DOCKER::SANDBOX_IMAGE_PULL_FAILED",
		"ErrImagePull",
	} {
		if !IsImagePullFailure("step base", text) {
			t.Errorf("%q is not taken for a pull failure", text)
		}
	}
	for _, text := range []string{
		"template 'base-missing' not found",
		"tag 'default' does not exist for template 'acme/half'",
		"invalid template reference: invalid template ID: Not Valid!",
		"start command failed: error running start command: exit status 127",
		"failed to run command 'pip install numpy': exit status 1",
		"build was cancelled",
		"The build was canceled because it was superseded by a newer one.",
	} {
		if IsImagePullFailure(text) {
			t.Errorf("%q is taken for a pull failure", text)
		}
	}
}
