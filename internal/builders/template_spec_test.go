package builders

import "testing"

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
