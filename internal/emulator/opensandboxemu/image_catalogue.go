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
	"/bin/sh", "/bin/bash", "/bin/echo", "/bin/true", "/bin/false", "/bin/cat",
	"/usr/bin/tail", "/usr/bin/sleep", "/usr/bin/env",
}

// codeInterpreterFiles: OSB sandboxes/code-interpreter/Dockerfile copies the start script to
// /opt/code-interpreter/code-interpreter.sh and makes it the ENTRYPOINT (image v1.1.0 on).
var codeInterpreterFiles = []string{"/opt/code-interpreter/code-interpreter.sh", "/usr/bin/python3"}

// pythonFiles: the official python images install into /usr/local/bin.
var pythonFiles = []string{"/usr/local/bin/python3", "/usr/local/bin/python", "/usr/local/bin/pip", "/usr/local/bin/pip3"}

// imageCatalogue is checked in order; the first matching pattern wins. Images it does not name
// hold only baseFiles.
var imageCatalogue = []imageContents{
	{pattern: "opensandbox/code-interpreter:*", files: codeInterpreterFiles},
	{pattern: "*/opensandbox/code-interpreter:*", files: codeInterpreterFiles},
	{pattern: "python:*", files: pythonFiles},
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
	for _, dir := range []string{"/usr/local/bin/", "/usr/bin/", "/bin/"} {
		if slices.Contains(files, dir+name) {
			return true
		}
	}
	return false
}
