package e2bemu_test

import (
	"testing"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/emulator/e2bemu"
)

// TestASandboxGetsTheCreateRequestsEnvNotTheTemplates: an ENV step is for the build's later steps
// only; a sandbox runs as the template's last USER, in its last WORKDIR, with the create request's
// envVars as its environment (finalize/builder.go:155-181, handlers/sandbox_create.go:153, envd
// init.go:268-271; js-sdk template/types.ts: "available only during template build").
func TestASandboxGetsTheCreateRequestsEnvNotTheTemplates(t *testing.T) {
	emu := e2bemu.NewTestServer(t, e2bemu.Options{APIKey: apiKey})
	c := newCaller(t, emu)
	steps := []any{map[string]any{"type": "ENV", "args": []string{"MPLBACKEND", "Agg"}}, runStep(`test "$MPLBACKEND" = Agg`),
		map[string]any{"type": "USER", "args": []string{"app"}}, map[string]any{"type": "WORKDIR", "args": []string{"/srv"}}}
	if status, message, step := buildOutcome(t, c, "plots", map[string]any{"fromImage": "python:3.12", "steps": steps}); status != "ready" {
		t.Fatalf("build = %s %q at %q, want the ENV step to reach the next step", status, message, step)
	}
	for envVars, want := range map[string]string{"": "[] app /srv\n", "Agg": "[Agg] app /srv\n"} {
		body := map[string]any{"templateID": "plots"}
		if envVars != "" {
			body["envVars"] = map[string]string{"MPLBACKEND": envVars}
		}
		_, _, out, _ := c.call("POST", "/sandboxes", body)
		id, _ := out["sandboxID"].(string)
		r, ok := emu.RunInSandbox(id, `echo "[$MPLBACKEND] $(id -un) $PWD"`)
		if !ok || r.ExitCode != 0 || r.Stdout != want {
			t.Errorf("envVars %v: the sandbox printed %q (%+v), want %q", body["envVars"], r.Stdout, r, want)
		}
	}
}
