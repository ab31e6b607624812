package e2bemu

import (
	"fmt"
	"slices"
	"strings"
)

// What a registry answers when a build pulls its image. The orchestrator turns the registry's
// error code into the build's reason, failed at step "base"
// (orchestrator/pkg/template/build/core/oci/oci.go wrapImagePullError):
//
//	MANIFEST_UNKNOWN  image '<ref>' not found: the image or tag does not exist in the registry
//	NAME_UNKNOWN      repository '<ref>' not found: verify the image name is correct
//	UNAUTHORIZED      access denied to '<ref>': authentication required or insufficient permissions
//
// The emulator models one registry completely: PrivateRegistry, which holds only
// privateRepositories and lets only the PrivateRegistryUser login pull (another login, or none,
// is UNAUTHORIZED, before anything is looked up). Every other image pulls.
const (
	PrivateRegistry         = "registry.test" // .test is reserved for testing (RFC 6761)
	PrivateRegistryUser     = "robot"
	PrivateRegistryPassword = "robot-password"
)

// privateRepositories are PrivateRegistry's repositories and their tags.
var privateRepositories = map[string][]string{"team/app": {"1", "latest"}}

// pullFailure is why a build from image ref, pulled with reg, fails at step "base", or "".
func pullFailure(ref string, reg *FromImageRegistry) string {
	if ref == "" {
		// No image makes it a v1 build, whose image E2B's own registry should hold (oci.go GetImage).
		return "failed to pull build image from registry"
	}
	host, path, _ := strings.Cut(ref, "/")
	if host != PrivateRegistry {
		return ""
	}
	if reg == nil || *reg != (FromImageRegistry{Type: "registry", Username: PrivateRegistryUser, Password: PrivateRegistryPassword}) {
		return fmt.Sprintf("access denied to '%s': authentication required or insufficient permissions", ref)
	}
	repo, tag := splitReference(path)
	tags, found := privateRepositories[repo]
	switch {
	case !found:
		return fmt.Sprintf("repository '%s' not found: verify the image name is correct", ref)
	case tag != "" && !slices.Contains(tags, tag):
		return fmt.Sprintf("image '%s' not found: the image or tag does not exist in the registry", ref)
	}
	return ""
}

// splitReference splits "repo:tag" (no tag: latest) or "repo@digest" (tag "": the catalogue keeps
// no digests, so any digest of a repository it holds is taken to exist).
func splitReference(path string) (repo, tag string) {
	if repo, _, ok := strings.Cut(path, "@"); ok {
		return repo, ""
	}
	if repo, tag, ok := strings.Cut(path, ":"); ok {
		return repo, tag
	}
	return path, "latest"
}
