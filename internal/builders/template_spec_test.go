package builders

import (
	"strings"
	"testing"
)

func TestTemplateSpecDefaults(t *testing.T) {
	got := TemplateSpec{}.WithDefaults()
	if got.CPUCount != DefaultSandboxCPUCount || got.MemoryMB != DefaultSandboxMemoryMB {
		t.Errorf("defaults = %d CPU / %d MB, want %d / %d", got.CPUCount, got.MemoryMB, DefaultSandboxCPUCount, DefaultSandboxMemoryMB)
	}
	kept := TemplateSpec{CPUCount: 8, MemoryMB: 4096}.WithDefaults()
	if kept.CPUCount != 8 || kept.MemoryMB != 4096 {
		t.Errorf("explicit sizing must be kept, got %d / %d", kept.CPUCount, kept.MemoryMB)
	}
}

// Commands with a NUL and sizes no build API can carry are refused before any request, on the
// field at fault; a size the backend ignores is left to its warning.
func TestValidateCommandsAndSizes(t *testing.T) {
	nul := "python -m app\x00--debug"
	ignoresMemory := fakeBackend
	ignoresMemory.Ignored = map[string]string{"memory_mb": "it sizes nothing"}
	for _, tt := range []struct {
		name    string
		backend *Backend
		spec    TemplateSpec
		want    []string
	}{
		{"NUL in start_cmd", &fakeBackend, TemplateSpec{StartCmd: &nul}, []string{"start_cmd: must not contain a NUL character"}},
		{"NUL in ready_cmd", &fakeBackend, TemplateSpec{ReadyCmd: nul}, []string{"ready_cmd: must not contain a NUL character"}},
		{"a trillion MiB", &fakeBackend, TemplateSpec{MemoryMB: 1_000_000_000_000}, []string{"memory_mb: must be at most 2147483647 (build APIs carry it as a 32-bit integer), got 1000000000000"}},
		{"a trillion vCPUs", &fakeBackend, TemplateSpec{CPUCount: 1 << 40}, []string{"cpu_count: must be at most 2147483647"}},
		{"ignored size", &ignoresMemory, TemplateSpec{MemoryMB: 1_000_000_000_000}, nil},
		{"newlines are fine", &fakeBackend, TemplateSpec{ReadyCmd: "curl -f localhost:8080 \\\n  || exit 1"}, nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			tt.spec.TemplateID, tt.spec.Image = "py", "python:3.12"
			got := tt.spec.Validate(tt.backend)
			if len(got) != len(tt.want) {
				t.Fatalf("Validate = %v, want %d problems: %v", got, len(tt.want), tt.want)
			}
			for i, want := range tt.want {
				if !strings.HasPrefix(got[i].Error(), want) {
					t.Errorf("problem %d = %q, want %q", i, got[i].Error(), want)
				}
			}
		})
	}
}
