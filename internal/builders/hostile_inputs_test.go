package builders

import (
	"strings"
	"testing"
)

// TestHostileInputsAreRefused: what no backend can carry is a problem on its field, before any
// request: a NUL in a run command or an env value (bash's argument and a process's environment
// are C strings), a disk minimum no 32-bit MiB size holds, and tags or targets that are too long or
// name a folder. A newline in a run command or an env value is fine: both backends run the
// command with bash (a multi-line script) and carry the value as it is.
func TestHostileInputsAreRefused(t *testing.T) {
	rules := TagRules{Live: "default", Reserved: "inputs-", Tag: func(string) string { return "" }, Target: func(string) string { return "" }}
	tagging := fakeBackend
	tagging.Tags = &rules
	trillion := 1_000_000_000_000
	maxDisk := 1<<31 - 1
	for _, tt := range []struct {
		name string
		spec TemplateSpec
		want string // a problem's prefix, "" for none
	}{
		{"NUL in a run command", TemplateSpec{Steps: []BuildStep{{Run: &RunStep{Command: "make\x00 install"}}}},
			"steps[0].run.command: must not contain a NUL character"},
		{"NUL in an env value", TemplateSpec{Steps: []BuildStep{{Env: map[string]string{"A": "ok", "TOKEN": "x\x00y"}}}},
			"steps[0].env: the value of TOKEN must not contain a NUL character"},
		{"a multi-line run command", TemplateSpec{Steps: []BuildStep{{Run: &RunStep{Command: "set -e\nmake\nmake install"}}}}, ""},
		{"a multi-line env value", TemplateSpec{Steps: []BuildStep{{Env: map[string]string{"CERT": "-----BEGIN-----\nAAAA\n-----END-----"}}}}, ""},
		{"a trillion MiB free", TemplateSpec{MinFreeDiskMB: &trillion},
			"min_free_disk_mb: must be at most 2147483647 (build APIs carry it as a 32-bit integer), got 1000000000000"},
		{"the largest disk minimum", TemplateSpec{MinFreeDiskMB: &maxDisk}, ""},
		{"a 5,000-character tag", TemplateSpec{Tags: []string{strings.Repeat("v", 5000)}}, `tags: "vvv`},
		{"the parent folder as a tag", TemplateSpec{Tags: []string{".."}}, `tags: ".." names this or the parent folder`},
		{"this folder as a tag", TemplateSpec{Tags: []string{"."}}, `tags: "." names this or the parent folder`},
		{"a 128-character tag", TemplateSpec{Tags: []string{strings.Repeat("v", 128)}}, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			tt.spec.TemplateID, tt.spec.Image = "py", "python:3.12"
			got := tt.spec.Validate(&tagging)
			switch {
			case tt.want == "" && len(got) > 0:
				t.Errorf("unexpected problems: %v", got)
			case tt.want != "" && (len(got) != 1 || !strings.HasPrefix(got[0].Error(), tt.want)):
				t.Errorf("problems = %v, want one starting %q", got, tt.want)
			}
		})
	}
	if got := rules.TagProblem(strings.Repeat("v", 5000)); got != "is 5000 characters long: at most 128" {
		t.Errorf("a 5,000-character tag: %q", got)
	}
	for _, target := range []string{"..", ".", strings.Repeat("b", 129)} {
		if rules.TargetProblem(target) == "" {
			t.Errorf("target %.20q was accepted", target)
		}
	}
}
