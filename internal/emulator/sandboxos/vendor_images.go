package sandboxos

import (
	"maps"
	"strings"
)

// Images the sandbox vendors publish, by repository (any registry, any tag).

// E2BCodeInterpreter is e2b-dev/code-interpreter's Docker Hub image (template/build_docker.py):
// python:3.12 with Jupyter, Node and the start script /root/.jupyter/start-up.sh, which no other
// image has (e2b-dev/E2B#827).
func E2BCodeInterpreter() Image {
	img, _ := officialImage("python", "3.12")
	maps.Copy(img.Programs, bins("/usr/local/bin", "jupyter", "node", "npm", "npx"))
	img.Programs["/root/.jupyter/start-up.sh"] = "jupyter-server"
	img.Node = nodeVersions["20"]
	return img
}

// OpenSandboxCodeInterpreter is OpenSandbox's sandboxes/code-interpreter image (v1.1.0 on): its
// base (Dockerfile_base) is ubuntu:24.04 with the distribution's Python (externally managed, no pip
// on the PATH: python3 -m pip), curl and git, and Node 22 first on the PATH; the entrypoint is
// /opt/code-interpreter/code-interpreter.sh, which starts Jupyter.
func OpenSandboxCodeInterpreter() Image {
	img := familyImage(Ubuntu)
	img.Programs["/usr/bin/python3"] = "python"
	img.Python, img.ExternallyManaged = pythonVersions["3.12"], true
	img.Files["/usr/lib/python3/dist-packages/pip/__init__.py"] = ""
	maps.Copy(img.Programs, bins("/usr/bin", "curl", "git"))
	maps.Copy(img.Programs, bins("/usr/local/bin", "node", "npm", "npx", "jupyter"))
	img.Programs["/opt/code-interpreter/code-interpreter.sh"] = "jupyter-server"
	img.Node = nodeVersions["22"]
	img.Entrypoint = []string{"/opt/code-interpreter/code-interpreter.sh"}
	return img
}

// distrolessImage is gcr.io/distroless/<name>: no shell, no package manager; the language
// flavours hold their runtime.
func distrolessImage(name string) Image {
	img := familyImage(Distroless)
	switch {
	case strings.HasPrefix(name, "python3"):
		img.Programs["/usr/bin/python3"] = "python"
		img.Python = pythonVersions["3.11"]
		img.Entrypoint = []string{"/usr/bin/python3"}
	case strings.HasPrefix(name, "nodejs"):
		img.Programs["/nodejs/bin/node"] = "node"
		img.Node = nodeVersions["22"]
		img.Entrypoint = []string{"/nodejs/bin/node"}
	case strings.HasPrefix(name, "java"):
		img.Programs["/usr/bin/java"] = "java"
		img.Entrypoint = []string{"/usr/bin/java", "-jar"}
	}
	return img
}

// assumedImage is what the emulator takes an image it cannot know to hold: a private registry's
// repository, or a Docker Hub repository outside the official ones. It assumes the commonest
// base of such images, a Debian image with Python (as python:3.12), and says so; declare the
// image (Catalogue.Declare) to say otherwise.
func assumedImage() Image {
	img, _ := officialImage("python", "3.12")
	img.Assumed = true
	img.Assumption = "an image the emulator cannot know is assumed to be Debian with Python 3.12, pip, git and curl (as python:3.12); declare it to say otherwise"
	return img
}
