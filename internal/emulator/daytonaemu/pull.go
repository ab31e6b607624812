package daytonaemu

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/emulator/sandboxos"
)

// pullProblem is why a pull of ref with cred (nil: anonymous) fails, in the Docker daemon's words
// the runner passes on (runner pkg/docker image_info.go InspectImageInRegistry returns the
// daemon's error, which becomes the snapshot's errorReason through snapshot.manager.ts
// syncSnapshotState), or "" with what the pull gives. The daemon's wording is not in Daytona's
// source; it is the daemon's usual answer for each registry error.
func (s *Server) pullImage(ref string, cred *Credential) (sandboxos.Image, string) {
	if want, private := s.privateCredential(ref); private && (cred == nil || *cred != want) {
		return sandboxos.Image{}, deniedMessage(ref)
	}
	img, err := s.catalogue.Resolve(ref)
	if err != nil {
		if err.Code == sandboxos.ManifestUnknown {
			return sandboxos.Image{}, fmt.Sprintf("Error response from daemon: manifest for %s not found: manifest unknown: manifest unknown", ref)
		}
		return sandboxos.Image{}, deniedMessage(ref)
	}
	return img, ""
}

func deniedMessage(ref string) string {
	r := sandboxos.ParseReference(ref)
	name := strings.TrimPrefix(r.Repository, "library/")
	if r.Private() {
		name = r.Registry + "/" + r.Repository
	}
	return fmt.Sprintf("Error response from daemon: pull access denied for %s, repository does not exist or may require 'docker login': denied: requested access to the resource is denied", name)
}

// privateCredential is the credential Options.PrivateImages (or the images control) requires for
// ref, declared by reference or by repository. Callers hold mu.
func (s *Server) privateCredential(ref string) (Credential, bool) {
	if c, ok := s.private[ref]; ok {
		return c, true
	}
	r := sandboxos.ParseReference(ref)
	for key, c := range s.private {
		if k := sandboxos.ParseReference(key); k.Registry == r.Registry && k.Repository == r.Repository &&
			!strings.Contains(key[strings.LastIndex(key, "/")+1:], ":") && !strings.Contains(key, "@") {
			return c, true
		}
	}
	return Credential{}, false
}

// preparePull decides what the snapshot manager does with a snapshot of an image
// (snapshot.manager.ts handleSnapshotStatePending): the registry entry that matches the image
// (docker-registry.service.ts findRegistryByImageName) gives the pull its credentials; an image
// that does not pull sends the snapshot from pending to error with the daemon's message, one that
// does goes pulling, then active with the image's entrypoint when none was given
// (processSnapshotDigest). Callers hold mu.
func (s *Server) preparePull(sn *Snapshot) {
	img, problem := s.pullImage(sn.ImageName, s.registryFor(sn.ImageName))
	if problem != "" {
		sn.next = []step{{StateError, problem}}
		return
	}
	sum := sha256.Sum256([]byte(sn.ImageName))
	sn.Ref = internalRegistry + "/daytona-" + hex.EncodeToString(sum[:]) + ":daytona"
	if sn.Entrypoint == nil {
		sn.Entrypoint = img.Entrypoint
	}
	size := 0.25
	sn.Size = &size
	sn.machine = sandboxos.Boot(img)
	sn.config = runConfig{env: img.Env, workdir: img.Workdir, user: img.User}
	sn.next = []step{{state: StatePulling}, {state: StateActive}}
}
