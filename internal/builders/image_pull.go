package builders

import "strings"

// imagePullMarkers are lower-case fragments of the ways backends and runtimes say an image could
// not be pulled:
//   - E2B's build reasons, from e2b-dev/infra orchestrator/pkg/template/build/core/oci/oci.go
//     ("image '<ref>' not found: the image or tag does not exist in the registry", "repository
//     '<ref>' not found: verify the image name is correct", "access denied to '<ref>': ...",
//     "failed to pull image '<ref>': ...", "invalid image reference '<ref>': ...", "failed to
//     inspect image '<ref>': ...", "image architecture ... does not match ...");
//   - Docker's and containerd's messages ("pull access denied", "manifest unknown"), Kubernetes'
//     ErrImagePull / ImagePullBackOff and OpenSandbox's DOCKER::SANDBOX_IMAGE_PULL_FAILED.
var imagePullMarkers = []string{
	"does not exist in the registry", "verify the image name is correct", "access denied to '",
	"invalid image reference", "failed to inspect image", "image architecture",
	"imagepull", "image_pull", "image pull", "pull image", "pulling image", "error pulling", "failed to pull",
	"pull access denied", "manifest unknown", "manifest for", "repository does not exist",
	"unauthorized: authentication required", "no such image",
}

// IsImagePullFailure tells whether any of texts (a reason, message, error code or log line)
// reports a failed image pull, so a backend can report StageImagePull.
func IsImagePullFailure(texts ...string) bool {
	for _, t := range texts {
		t = strings.ToLower(t)
		for _, marker := range imagePullMarkers {
			if strings.Contains(t, marker) {
				return true
			}
		}
	}
	return false
}
