package sandboxos

import (
	"fmt"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// Declaration says what an image holds, for images the emulator cannot know (a private
// registry's) or knows wrongly. It replaces what the catalogue would assume.
type Declaration struct {
	// Family is debian (the default), ubuntu, alpine or distroless: the base the image starts
	// from, with its package manager, user tools and users.
	Family Family `json:"family,omitempty"`
	// Programs are added to the family's: a name goes to /usr/local/bin, a path where it says.
	// Each runs the model of its base name (python3.12 runs python's; a name without a model
	// runs as an unmodelled program: it succeeds, or keeps running as a service).
	Programs []string `json:"programs,omitempty"`
	// Users are added to /etc/passwd: "name" (the next uid from 1000) or "name:uid".
	Users      []string          `json:"users,omitempty"`
	User       string            `json:"user,omitempty"`
	Workdir    string            `json:"workdir,omitempty"`
	Entrypoint []string          `json:"entrypoint,omitempty"`
	Env        map[string]string `json:"env,omitempty"`
}

var versionSuffix = regexp.MustCompile(`[0-9.]+$`)

// modelFor is the program model an executable named name runs.
func modelFor(name string) string {
	base := path.Base(name)
	switch stripped := versionSuffix.ReplaceAllString(base, ""); stripped {
	case "python", "pip", "node", "sh", "bash":
		return stripped
	}
	return base
}

// Image is the image the declaration describes.
func (d Declaration) Image() (Image, error) {
	family := d.Family
	if family == "" {
		family = Debian
	}
	if !slices.Contains(Families, family) {
		return Image{}, fmt.Errorf("family %q is none of %v", family, Families)
	}
	img := familyImage(family)
	for _, p := range d.Programs {
		if p == "" || strings.ContainsAny(p, " \t") {
			return Image{}, fmt.Errorf("program %q is not a name or an absolute path", p)
		}
		target := p
		if !strings.HasPrefix(p, "/") {
			target = "/usr/local/bin/" + p
		}
		model := modelFor(target)
		img.Programs[path.Clean(target)] = model
		switch model {
		case "python":
			img.Python = pythonVersions["3.12"]
		case "node":
			img.Node = nodeVersions["20"]
		}
	}
	next := 1000
	for _, spec := range d.Users {
		name, uidText, hasUID := strings.Cut(spec, ":")
		uid := next
		if hasUID {
			n, err := strconv.Atoi(uidText)
			if err != nil || n < 0 {
				return Image{}, fmt.Errorf("user %q: the uid must be a number", spec)
			}
			uid = n
		}
		if !validUserName(name) {
			return Image{}, fmt.Errorf("user %q is not a valid user name", name)
		}
		next = max(next, uid+1)
		img.Users = append(img.Users, User{Name: name, UID: uid, GID: uid, Home: "/home/" + name, Shell: "/bin/sh"})
	}
	img.User, img.Workdir, img.Entrypoint = d.User, d.Workdir, d.Entrypoint
	for k, v := range d.Env {
		img.Env[k] = v
	}
	return img, nil
}

// Declare makes ref resolve to what d describes: ref with a tag or digest names that image, ref
// without either names every tag of the repository.
func (c *Catalogue) Declare(ref string, d Declaration) error {
	img, err := d.Image()
	if err != nil {
		return err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.declared == nil {
		c.declared = map[string]Image{}
	}
	r := ParseReference(ref)
	if !strings.Contains(path.Base(ref), ":") && !strings.Contains(ref, "@") {
		c.declared[r.Registry+"/"+r.Repository] = img
		return nil
	}
	c.declared[ref] = img
	return nil
}

// ImageDeclaration is a reference and what it holds: the body of the emulators' images control
// and the value of sandbox-emulator's -image flag.
type ImageDeclaration struct {
	Ref string `json:"ref"`
	Declaration
}

// DeclareImage adds d to the catalogue.
func (c *Catalogue) DeclareImage(d ImageDeclaration) error {
	if d.Ref == "" {
		return fmt.Errorf("an image declaration needs a ref")
	}
	return c.Declare(d.Ref, d.Declaration)
}
