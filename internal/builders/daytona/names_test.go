package daytona

import "testing"

// TestSnapshotNames: a build's name carries its template and inputs, and is read back only as a
// build of that template: never another template's whose id starts the same, nor a name with
// anything after it.
func TestSnapshotNames(t *testing.T) {
	const fp = "0123456789abcdef"
	if got := snapshotName("py", fp, 0); got != "py:inputs-"+fp {
		t.Errorf("first build's name = %q", got)
	}
	if got := snapshotName("py", fp, 3); got != "py:inputs-"+fp+".3" {
		t.Errorf("a forced rebuild's name = %q", got)
	}
	for _, tt := range []struct {
		template, name string
		want           ownName
		ok             bool
	}{
		{"py", "py:inputs-" + fp, ownName{fp, 0}, true},
		{"py", "py:inputs-" + fp + ".12", ownName{fp, 12}, true},
		{"py", "py-2:inputs-" + fp, ownName{}, false},
		{"py-2", "py-2:inputs-" + fp, ownName{fp, 0}, true},
		{"py", "py:inputs-" + fp + "x", ownName{}, false},
		{"py", "py:inputs-" + fp + ".0", ownName{}, false},
		{"py", "PY:inputs-" + fp, ownName{}, false},
		{"py", "ubuntu-4vcpu-8ram-100gb", ownName{}, false},
	} {
		got, ok := parseName(tt.template, tt.name)
		if ok != tt.ok || got != tt.want {
			t.Errorf("parseName(%q, %q) = %v, %v; want %v, %v", tt.template, tt.name, got, ok, tt.want, tt.ok)
		}
	}
	if got := templateOf("py_x:inputs-" + fp); got != "py_x" {
		t.Errorf("templateOf = %q", got)
	}
}
