package opensandbox

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders"
	"github.com/sandboxtf/terraform-provider-sandbox/internal/emulator/opensandboxemu"
)

// Issue 11, problem 1: with start_cmd unset, the start command is the code-interpreter entrypoint,
// which an ordinary image does not have; it ends, and the build must say why.
func TestDefaultEntrypointOnAnImageWithoutIt(t *testing.T) {
	for _, packages := range [][]string{nil, {"six"}} {
		h := newHarness(t, opensandboxemu.Options{})
		s := spec("slim")
		s.Image, s.Packages = "python:3.12-slim", packages
		got := builders.Ensure(context.Background(), h.b, s, builders.Observer{})
		for _, want := range []string{"ended with exit code 127", "start_cmd is not set", CodeInterpreterEntrypoint[0], `start_cmd = ""`,
			"No such file or directory"} {
			assertFailed(t, got, builders.StageTemplateBuild, want)
		}
		if sb := h.onlySandbox(t); !slices.Equal(sb.Entrypoint, NeutralEntrypoint) || len(sb.Commands) != len(packages)+1 {
			t.Errorf("entrypoint %q, commands %+v; want the neutral entrypoint, the packages, then the start command", sb.Entrypoint, sb.Commands)
		}
		if n := len(h.emu.Snapshots()); n != 0 {
			t.Errorf("%d snapshots of a sandbox whose start command ended", n)
		}
		h.assertAllSandboxesDeleted(t)
	}
}

func TestEmptyStartCmdStartsNothing(t *testing.T) {
	h := newHarness(t, opensandboxemu.Options{})
	s := spec("slim")
	s.Image, s.StartCmd = "python:3.12-slim", ptr("")
	if got := builders.Ensure(context.Background(), h.b, s, builders.Observer{}); got.Status != builders.StatusSuccess {
		t.Fatalf("Ensure = %+v", got)
	}
	if sb := h.onlySandbox(t); !slices.Equal(sb.Entrypoint, []string{"tail", "-f", "/dev/null"}) || len(sb.Calls) != 0 {
		t.Errorf("entrypoint = %q, execd calls %+v; want the neutral one and none", sb.Entrypoint, sb.Calls)
	}
}

func TestAStartCmdThatEndsEndsTheBuild(t *testing.T) {
	h := newHarness(t, opensandboxemu.Options{})
	s := spec("oneshot")
	s.Image, s.StartCmd = "python:3.12-slim", ptr("echo ready")
	got := builders.Ensure(context.Background(), h.b, s, builders.Observer{})
	assertFailed(t, got, builders.StageTemplateBuild, `start_cmd ("echo ready") must keep running`)
	assertFailed(t, got, builders.StageTemplateBuild, "its last output:\n  ready")
	if strings.Contains(got.Detail, "start_cmd is not set") {
		t.Errorf("a set start_cmd was blamed on the default: %s", got.Detail)
	}
}

// SandboxEntrypoint is what consumers pass when they restore: the command the build starts after
// the steps (through a shell, detached), while the builder sandbox itself runs the neutral entrypoint.
func TestSandboxEntrypointIsTheStartCommand(t *testing.T) {
	for startCmd, sent := range map[*string]string{nil: CodeInterpreterEntrypoint[0], ptr(`python3 -m http.server "8000"`): `sh -c 'python3 -m http.server "8000"'`} {
		h := newHarness(t, opensandboxemu.Options{})
		s := spec("ep")
		s.StartCmd = startCmd
		if got := builders.Ensure(context.Background(), h.b, s, builders.Observer{}); got.Status != builders.StatusSuccess {
			t.Fatalf("Ensure = %+v", got)
		}
		sb := h.onlySandbox(t)
		if !slices.Equal(sb.Entrypoint, NeutralEntrypoint) || len(sb.Commands) != 1 || sb.Commands[0].Command != sent || !sb.Commands[0].Background {
			t.Errorf("start_cmd %v: entrypoint %q, commands %+v; want %q started detached", startCmd, sb.Entrypoint, sb.Commands, sent)
		}
	}
	if got := SandboxEntrypoint(nil); !slices.Equal(got, CodeInterpreterEntrypoint) {
		t.Errorf("unset: %q", got)
	}
	if got := SandboxEntrypoint(ptr("")); !slices.Equal(got, NeutralEntrypoint) {
		t.Errorf(`"": %q`, got)
	}
	if got := SandboxEntrypoint(ptr("uvicorn app:app")); !slices.Equal(got, []string{"sh", "-c", "uvicorn app:app"}) {
		t.Errorf("set: %q", got)
	}
}
