package sandboxos

import (
	"strings"
	"sync"
)

// Catalogue resolves image references to what they hold: declared images first, then the
// vendors' images, Docker Hub's official images, and an assumption for the rest. It is safe for
// concurrent use.
type Catalogue struct {
	mu       sync.Mutex
	declared map[string]Image // by reference as declared, and by repository for a declaration without tag
}

// Resolve is what pulling ref gives, or the registry's refusal. The image's Ref is ref.
func (c *Catalogue) Resolve(ref string) (Image, *PullError) {
	img, err := c.resolve(ref)
	if err == nil {
		img = img.Clone()
		img.Ref = ref
	}
	return img, err
}

func (c *Catalogue) resolve(ref string) (Image, *PullError) {
	r := ParseReference(ref)
	if img, ok := c.lookupDeclared(ref, r); ok {
		return img, nil
	}
	switch repo := r.Repository; {
	case strings.HasSuffix(repo, "e2bdev/code-interpreter") || strings.HasPrefix(repo, "e2bdev/code-interpreter"):
		return E2BCodeInterpreter(), nil
	case strings.HasSuffix(repo, "opensandbox/code-interpreter"):
		return OpenSandboxCodeInterpreter(), nil
	case r.Registry == "gcr.io" && strings.HasPrefix(repo, "distroless/"):
		return distrolessImage(strings.TrimPrefix(repo, "distroless/")), nil
	}
	name := r.Official()
	if name == "" {
		return assumedImage(), nil
	}
	if r.Digest != "" && r.Tag == "" {
		r.Tag = "latest" // a digest of a known repository is taken to exist
	}
	img, ok := officialImage(name, r.Tag)
	if ok {
		return img, nil
	}
	if _, repoKnown := officialTags[name]; repoKnown {
		return Image{}, &PullError{Ref: ref, Code: ManifestUnknown}
	}
	return Image{}, &PullError{Ref: ref, Code: Unauthorized}
}

func (c *Catalogue) lookupDeclared(ref string, r Reference) (Image, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if img, ok := c.declared[ref]; ok {
		return img, true
	}
	img, ok := c.declared[r.Registry+"/"+r.Repository]
	return img, ok
}
