package e2bemu

import (
	"context"
	"maps"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/emulator/sandboxos"
)

// baseTemplate is what a build from a template (fromTemplate) starts from: the template's
// filesystem and context, and its start metadata, which finalize/builder.go copies unless the
// build sets a start or ready command.
type baseTemplate struct {
	state              layerState
	startCmd, readyCmd string
	buildID            string // the build it starts from, a key of the base layer ("" for E2B's own)
}

// builtinTemplate is one of E2B's public templates a build may start from: "base" (Debian with
// Python, Node and E2B's provisioning) and "code-interpreter-v1" (e2b-dev/code-interpreter
// template/template.py and build_prod.py: python:3.13 with Jupyter under systemd, started with
// `sudo systemctl start jupyter` and ready when its health endpoint answers 200).
func builtinTemplate(name string) (baseTemplate, bool) {
	var t baseTemplate
	switch name {
	case "base":
	case "code-interpreter-v1":
		t.startCmd = "sudo systemctl start jupyter"
		t.readyCmd = "curl -s -o /dev/null -w '%{http_code}' http://localhost:49999/health | grep -q 200"
	default:
		return baseTemplate{}, false
	}
	img, _ := new(sandboxos.Catalogue).Resolve("python:3.13")
	img.Programs = maps.Clone(img.Programs)
	for _, p := range []string{"node", "npm", "npx"} {
		img.Programs["/usr/local/bin/"+p] = p
	}
	if name == "code-interpreter-v1" {
		img.Programs["/usr/local/bin/jupyter"] = "jupyter"
	}
	img.Node = "v20.19.5"
	m, _ := provision(img)
	st := layerState{machine: m, ctx: stepContext{user: "root", env: map[string]string{}}}
	_, _ = userStep(&st, defaultUserName, true)
	_ = m.Run(context.Background(), "mkdir -p /code && chmod -R 777 /usr/local /code", sandboxos.Process{})
	t.state = st
	return t, true
}
