package builders

import (
	"regexp"
	"strings"
	"testing"
)

func TestParseCheckTarget(t *testing.T) {
	uuid := "0f8c2b9e-3a1d-4c5e-9f7a-2b6d8e1c4a3f"
	uuidPattern := regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$`)
	tagged := &Backend{Title: "Tagged", TemplateID: NameRule, Checks: true, Tags: &TagRules{Reserved: "inputs-",
		Tag: func(tag string) string {
			if uuidPattern.MatchString(tag) {
				return "is a build id"
			}
			return ""
		},
		Target: func(string) string { return "" },
		Ref:    func(id, build string) string { return id + ":" + build }}}
	untagged := &Backend{Title: "Untagged", TemplateID: NameRule, Checks: true}
	unchecked := &Backend{Title: "Unchecked", TemplateID: NameRule}
	for _, tt := range []struct {
		backend *Backend
		ref     string
		want    CheckTarget
		problem string
	}{
		{tagged, "py:" + uuid, CheckTarget{TemplateID: "py", Build: uuid}, ""},
		{tagged, "py", CheckTarget{}, "not one build: pass the template's build_ref (\"py:<build_id>\")"},
		{tagged, "py:prod", CheckTarget{}, "names tag \"prod\", which moves"},
		{tagged, "Py:" + uuid, CheckTarget{}, "not valid"},
		{untagged, "py", CheckTarget{TemplateID: "py"}, ""},
		{untagged, "py:x", CheckTarget{}, "not valid"},
		{unchecked, "py", CheckTarget{}, "the Unchecked backend cannot start sandboxes"},
	} {
		got, problem := ParseCheckTarget(tt.backend, tt.ref)
		if got != tt.want || (tt.problem == "") != (problem == "") || !strings.Contains(problem, tt.problem) {
			t.Errorf("%s %q: %+v, %q; want %+v, %q", tt.backend.Title, tt.ref, got, problem, tt.want, tt.problem)
		}
	}
}
