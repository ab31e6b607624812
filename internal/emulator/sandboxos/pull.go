package sandboxos

import "fmt"

// PullError is a registry's refusal of a pull, by its OCI distribution error code: each emulator
// words it as its server does (E2B: core/oci/oci.go wrapImagePullError; OpenSandbox: the Docker
// daemon's message).
type PullError struct {
	Ref  string
	Code string // ManifestUnknown, NameUnknown or Unauthorized
}

// The registry error codes a pull can fail with.
const (
	ManifestUnknown = "MANIFEST_UNKNOWN" // the repository exists, the tag does not
	NameUnknown     = "NAME_UNKNOWN"     // the repository does not exist (registries other than Docker Hub)
	Unauthorized    = "UNAUTHORIZED"     // no or wrong credentials; Docker Hub's answer for a missing repository too
)

func (e *PullError) Error() string { return fmt.Sprintf("%s: %s", e.Code, e.Ref) }
