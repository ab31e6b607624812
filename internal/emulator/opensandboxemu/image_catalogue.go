package opensandboxemu

import (
	"path"
	"slices"
	"strings"
)

// imageContents says which executables an image holds: what a sandbox's entrypoint
// (bootstrap.go) or an execd command (commands.go) can run.
type imageContents struct {
	pattern string // path.Match pattern on the image URI
	files   []string
}

// baseFiles are in every image the emulator knows: a shell and coreutils.
var baseFiles = []string{
	"/bin/sh", "/bin/bash", "/bin/echo", "/bin/true", "/bin/false", "/bin/cat", "/bin/ln", "/bin/chown", "/bin/mkdir",
	"/usr/bin/tail", "/usr/bin/sleep", "/usr/bin/env", "/usr/bin/id",
}

// debianFiles: what Debian and Ubuntu root filesystems add: the package manager and the user
// database tools (passwd, libc-bin).
var debianFiles = []string{"/usr/bin/apt-get", "/usr/bin/dpkg", "/usr/bin/getent", "/usr/sbin/useradd"}

// codeInterpreterFiles: OSB sandboxes/code-interpreter/Dockerfile copies the start script to
// /opt/code-interpreter/code-interpreter.sh and makes it the ENTRYPOINT (image v1.1.0 on); its base
// (Dockerfile_base, ubuntu:24.04) installs curl and git, and puts Node 22 first on the PATH.
var codeInterpreterFiles = append([]string{"/opt/code-interpreter/code-interpreter.sh", "/usr/bin/python3", "/usr/bin/curl",
	"/usr/bin/git", "/usr/local/bin/node", "/usr/local/bin/npm"}, debianFiles...)

// pythonFiles: the official python images (Debian) install into /usr/local/bin; the full ones
// (not -slim) also have git and curl (buildpack-deps).
var (
	pythonFiles     = append([]string{"/usr/local/bin/python3", "/usr/local/bin/python", "/usr/local/bin/pip", "/usr/local/bin/pip3"}, debianFiles...)
	pythonFullFiles = append([]string{"/usr/bin/git", "/usr/bin/curl"}, pythonFiles...)
)

// imageCatalogue is checked in order; the first matching pattern wins. Images it does not name
// hold only baseFiles.
var imageCatalogue = []imageContents{
	{pattern: "opensandbox/code-interpreter:*", files: codeInterpreterFiles},
	{pattern: "*/opensandbox/code-interpreter:*", files: codeInterpreterFiles},
	{pattern: "python:*-slim*", files: pythonFiles},
	{pattern: "python:*", files: pythonFullFiles},
	{pattern: "ubuntu:*", files: debianFiles},
	{pattern: "debian:*", files: debianFiles},
}

// imageFiles lists the files of image: the server's extra Images first, then the catalogue.
func (s *Server) imageFiles(image string) []string {
	files := append([]string(nil), baseFiles...)
	if extra, ok := s.opts.Images[image]; ok {
		return append(files, extra...)
	}
	for _, entry := range imageCatalogue {
		if ok, _ := path.Match(entry.pattern, image); ok {
			return append(files, entry.files...)
		}
	}
	return files
}

// hasProgram tells whether a command name resolves in files: an absolute path must be there; a
// bare name is looked up on the PATH of the official images.
func hasProgram(files []string, name string) bool {
	if strings.HasPrefix(name, "/") {
		return slices.Contains(files, name)
	}
	for _, dir := range []string{"/usr/local/sbin/", "/usr/local/bin/", "/usr/sbin/", "/usr/bin/", "/sbin/", "/bin/"} {
		if slices.Contains(files, dir+name) {
			return true
		}
	}
	return false
}
