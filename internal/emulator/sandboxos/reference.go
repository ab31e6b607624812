package sandboxos

import "strings"

// Reference is an image reference split as a registry client reads it: "python:3.12" is
// docker.io, library/python, tag 3.12.
type Reference struct {
	Registry   string // "docker.io" for Docker Hub
	Repository string // with "library/" for Docker Hub's official images
	Tag        string // "latest" when neither a tag nor a digest is given
	Digest     string
}

// ParseReference splits ref; it does not validate it.
func ParseReference(ref string) Reference {
	var r Reference
	ref, r.Digest, _ = strings.Cut(ref, "@")
	if i := strings.LastIndex(ref, ":"); i > strings.LastIndex(ref, "/") {
		ref, r.Tag = ref[:i], ref[i+1:]
	}
	if r.Tag == "" && r.Digest == "" {
		r.Tag = "latest"
	}
	r.Registry = "docker.io"
	if first, rest, ok := strings.Cut(ref, "/"); ok && (strings.ContainsAny(first, ".:") || first == "localhost") {
		r.Registry, ref = first, rest
	}
	if r.Registry == "index.docker.io" || r.Registry == "registry-1.docker.io" {
		r.Registry = "docker.io"
	}
	if r.Registry == "docker.io" && !strings.Contains(ref, "/") {
		ref = "library/" + ref
	}
	r.Repository = strings.ToLower(ref)
	return r
}

// Official is the name of a Docker Hub official image ("python"), or "".
func (r Reference) Official() string {
	if name, ok := strings.CutPrefix(r.Repository, "library/"); ok && r.Registry == "docker.io" {
		return name
	}
	return ""
}

// Private tells whether the reference is outside Docker Hub.
func (r Reference) Private() bool { return r.Registry != "docker.io" }
