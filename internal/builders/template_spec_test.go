package builders

import (
	"strings"
	"testing"
)

func TestTemplateSpecValidation(t *testing.T) {
	basic := &RegistryAuth{Basic: &BasicAuth{Username: "u", Password: NewSecret("p")}}
	tests := []struct {
		name     string
		provider SandboxProvider
		spec     TemplateSpec
		wantErr  []string // substrings; none means valid
	}{
		{"image only", ProviderE2B, TemplateSpec{TemplateID: "py", Image: "python:3.12"}, nil},
		{"full", ProviderE2B, TemplateSpec{TemplateID: "data-science", Image: "123456789012.dkr.ecr.us-east-1.amazonaws.com/ds:1.4",
			RegistryAuth: basic, Packages: []string{"pandas==2.2.3", "numpy"}, StartCmd: ptr("run"), ReadyCmd: "ready", CPUCount: 4, MemoryMB: 2048}, nil},
		{"digest image", ProviderE2B, TemplateSpec{TemplateID: "py", Image: "ghcr.io/org/img@sha256:" + strings.Repeat("a", 64)}, nil},
		{"deprecated base_template", ProviderE2B, TemplateSpec{TemplateID: "py", BaseTemplate: "base"}, nil},
		{"deprecated dockerfile", ProviderE2B, TemplateSpec{TemplateID: "py", Dockerfile: "FROM python:3.12"}, nil},
		{"bedrock needs no source", ProviderBedrock, TemplateSpec{TemplateID: "aws.codeinterpreter.v1"}, nil},
		{"empty template_id", ProviderE2B, TemplateSpec{Image: "python"}, []string{"template_id"}},
		{"upper-case template_id", ProviderE2B, TemplateSpec{TemplateID: "Py", Image: "python"}, []string{`template_id: "Py" is not valid for e2b`}},
		{"template_id with space", ProviderOpenSandbox, TemplateSpec{TemplateID: "a b", Image: "python"}, []string{"template_id"}},
		{"template_id too long", ProviderE2B, TemplateSpec{TemplateID: strings.Repeat("a", 129), Image: "python"}, []string{"template_id"}},
		{"bedrock id shape", ProviderBedrock, TemplateSpec{TemplateID: "my-template"}, []string{"code interpreter id"}},
		{"no source", ProviderE2B, TemplateSpec{TemplateID: "py"}, []string{"image: is required"}},
		{"two sources", ProviderE2B, TemplateSpec{TemplateID: "py", Image: "python", BaseTemplate: "base"}, []string{"exactly one of image, base_template or dockerfile, got 2"}},
		{"opensandbox needs image", ProviderOpenSandbox, TemplateSpec{TemplateID: "py", Dockerfile: "FROM x"}, []string{"OpenSandbox"}},
		{"bad image", ProviderE2B, TemplateSpec{TemplateID: "py", Image: "Python:3.12"}, []string{"not a valid image reference"}},
		{"image with spaces", ProviderE2B, TemplateSpec{TemplateID: "py", Image: "python 3"}, []string{"not a valid image reference"}},
		{"auth without image", ProviderE2B, TemplateSpec{TemplateID: "py", BaseTemplate: "b", RegistryAuth: basic}, []string{"registry_auth: only applies to image"}},
		{"incomplete auth", ProviderE2B, TemplateSpec{TemplateID: "py", Image: "python", RegistryAuth: &RegistryAuth{AWS: &AWSAuth{AccessKeyID: "a", SecretAccessKey: NewSecret("s")}}}, []string{"region: is required"}},
		{"empty package", ProviderE2B, TemplateSpec{TemplateID: "py", Image: "python", Packages: []string{"numpy", " "}}, []string{"packages[1]"}},
		{"multi-line package", ProviderE2B, TemplateSpec{TemplateID: "py", Image: "python", Packages: []string{"numpy\nrm -rf /"}}, []string{"packages[0]"}},
		{"cpu below minimum", ProviderE2B, TemplateSpec{TemplateID: "py", Image: "python", CPUCount: -1}, []string{"cpu_count: must be between 1 and 32, got -1"}},
		{"cpu odd", ProviderE2B, TemplateSpec{TemplateID: "py", Image: "python", CPUCount: 3}, []string{"cpu_count: must be 1 or an even number"}},
		{"cpu above 32", ProviderE2B, TemplateSpec{TemplateID: "py", Image: "python", CPUCount: 34}, []string{"cpu_count: must be between 1 and 32, got 34"}},
		{"memory odd", ProviderE2B, TemplateSpec{TemplateID: "py", Image: "python", MemoryMB: 1025}, []string{"memory_mb: must be an even number of MiB, got 1025"}},
		{"base template with ready_cmd alone", ProviderE2B, TemplateSpec{TemplateID: "py", BaseTemplate: "base", ReadyCmd: "true"}, []string{StartReadyWithBaseTemplate}},
		{"base template with start_cmd alone", ProviderE2B, TemplateSpec{TemplateID: "py", BaseTemplate: "base", StartCmd: ptr("")}, []string{StartReadyWithBaseTemplate}},
		{"memory below minimum", ProviderE2B, TemplateSpec{TemplateID: "py", Image: "python", MemoryMB: 127}, []string{"memory_mb: must be at least 128, got 127"}},
		{"every problem at once", ProviderE2B, TemplateSpec{TemplateID: "X", Image: "bad image", MemoryMB: 1}, []string{"template_id", "image:", "memory_mb"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.spec.Validate(tt.provider)
			if len(tt.wantErr) == 0 {
				if err != nil {
					t.Fatalf("unexpected error: %v", err)
				}
				return
			}
			if err == nil {
				t.Fatalf("want an error containing %q", tt.wantErr)
			}
			for _, want := range tt.wantErr {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("error %q does not contain %q", err, want)
				}
			}
		})
	}
}

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

func TestTemplateSpecWarnings(t *testing.T) {
	spec := TemplateSpec{TemplateID: "py", Image: "python", ReadyCmd: "x", CPUCount: 2, Dockerfile: "FROM x", BaseTemplate: "b"}
	fields := func(ws []Warning) string {
		var names []string
		for _, w := range ws {
			names = append(names, w.Field)
		}
		return strings.Join(names, ",")
	}
	if got := fields(spec.Warnings(ProviderE2B)); got != "base_template,dockerfile" {
		t.Errorf("e2b warnings = %s, want the two deprecations", got)
	}
	if got := fields(spec.Warnings(ProviderOpenSandbox)); got != "ready_cmd,cpu_count,base_template,dockerfile" {
		t.Errorf("opensandbox warnings = %s", got)
	}
	ws := spec.Warnings(ProviderOpenSandbox)
	if !strings.Contains(ws[0].Message, "ready_cmd is ignored by opensandbox") {
		t.Errorf("warning must name the field and backend: %q", ws[0].Message)
	}
	if got := (TemplateSpec{TemplateID: "py", Image: "python"}).Warnings(ProviderE2B); len(got) != 0 {
		t.Errorf("a plain spec has no warnings, got %v", got)
	}
}

func TestParseSandboxProvider(t *testing.T) {
	for _, p := range SandboxProviders {
		if got, err := ParseSandboxProvider(string(p)); err != nil || got != p {
			t.Errorf("ParseSandboxProvider(%q) = %q, %v", p, got, err)
		}
	}
	if _, err := ParseSandboxProvider("E2B"); err == nil {
		t.Error("names are case-sensitive: E2B must be rejected")
	}
	var p SandboxProvider
	if err := p.UnmarshalJSON([]byte(`"modal"`)); err == nil {
		t.Error("unknown provider must not unmarshal")
	}
	if err := p.UnmarshalJSON([]byte(`"opensandbox"`)); err != nil || p != ProviderOpenSandbox {
		t.Errorf("unmarshal opensandbox = %q, %v", p, err)
	}
}

func ptr(s string) *string { return &s }
