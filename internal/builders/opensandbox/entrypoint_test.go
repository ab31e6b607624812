package opensandbox

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders"
	"github.com/sandboxtf/terraform-provider-sandbox/internal/emulator/opensandboxemu"
)

// Issue 11, problem 1: with start_cmd unset, the builder sandbox runs the code-interpreter
// entrypoint, which an ordinary image does not have; the sandbox ends and the build must say why.
func TestDefaultEntrypointOnAnImageWithoutIt(t *testing.T) {
	for _, tt := range []struct {
		name     string
		opts     opensandboxemu.Options
		packages []string
	}{
		{"the sandbox has ended at the first look", opensandboxemu.Options{}, nil},
		{"the server answered Running before it ended, no packages", opensandboxemu.Options{EntrypointExitsAfter: 1}, nil},
		{"the server answered Running before it ended, with packages", opensandboxemu.Options{EntrypointExitsAfter: 1}, []string{"six"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t, tt.opts)
			s := spec("slim")
			s.Image, s.Packages = "python:3.12-slim", tt.packages
			got := builders.Ensure(context.Background(), h.b, s, builders.Observer{})
			for _, want := range []string{"exited with code 127", "start_cmd is not set", CodeInterpreterEntrypoint[0], `start_cmd = ""`} {
				assertFailed(t, got, builders.StageTemplateCreate, want)
			}
			if sb := h.onlySandbox(t); !slices.Equal(sb.Entrypoint, CodeInterpreterEntrypoint) {
				t.Errorf("entrypoint = %q, want the design's default", sb.Entrypoint)
			}
			if n := len(h.emu.Snapshots()); n != 0 {
				t.Errorf("%d snapshots of a sandbox that ended", n)
			}
			h.assertAllSandboxesDeleted(t)
		})
	}
}

func TestEmptyStartCmdIsTheNeutralEntrypoint(t *testing.T) {
	h := newHarness(t, opensandboxemu.Options{})
	s := spec("slim")
	s.Image, s.StartCmd = "python:3.12-slim", ptr("")
	if got := builders.Ensure(context.Background(), h.b, s, builders.Observer{}); got.Status != builders.StatusSuccess {
		t.Fatalf("Ensure = %+v", got)
	}
	if sb := h.onlySandbox(t); !slices.Equal(sb.Entrypoint, []string{"tail", "-f", "/dev/null"}) {
		t.Errorf("entrypoint = %q", sb.Entrypoint)
	}
}

func TestAStartCmdThatEndsEndsTheBuild(t *testing.T) {
	h := newHarness(t, opensandboxemu.Options{})
	s := spec("oneshot")
	s.Image, s.StartCmd = "python:3.12-slim", ptr("echo ready")
	got := builders.Ensure(context.Background(), h.b, s, builders.Observer{})
	assertFailed(t, got, builders.StageTemplateCreate, `start_cmd ("echo ready") must keep running`)
	if strings.Contains(got.Detail, "start_cmd is not set") {
		t.Errorf("a set start_cmd was blamed on the default: %s", got.Detail)
	}
}

// SandboxEntrypoint is what consumers pass when they restore: the builder sandbox's entrypoint.
func TestSandboxEntrypointIsTheBuilders(t *testing.T) {
	for _, startCmd := range []*string{nil, ptr(""), ptr(`python3 -m http.server "8000"`)} {
		h := newHarness(t, opensandboxemu.Options{})
		s := spec("ep")
		s.StartCmd = startCmd
		if got := builders.Ensure(context.Background(), h.b, s, builders.Observer{}); got.Status != builders.StatusSuccess {
			t.Fatalf("Ensure = %+v", got)
		}
		if want := SandboxEntrypoint(startCmd); !slices.Equal(h.onlySandbox(t).Entrypoint, want) {
			t.Errorf("start_cmd %v: builder ran %q, SandboxEntrypoint says %q", startCmd, h.onlySandbox(t).Entrypoint, want)
		}
	}
	if got := SandboxEntrypoint(nil); !slices.Equal(got, CodeInterpreterEntrypoint) {
		t.Errorf("unset: %q", got)
	}
	if got := SandboxEntrypoint(ptr("")); !slices.Equal(got, NeutralEntrypoint) {
		t.Errorf(`"": %q`, got)
	}
}
