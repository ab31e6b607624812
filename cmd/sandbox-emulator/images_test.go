package main

import (
	"io"
	"testing"
)

// TestImageFlagDeclaresImages: -image REF=JSON reaches both emulators' options; a declaration the
// engine cannot use is refused at start, not at the first build.
func TestImageFlagDeclaresImages(t *testing.T) {
	o, err := parseOptions([]string{"-image", `ghcr.io/acme/app={"family":"alpine","programs":["node"],"users":["app"]}`}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if d, ok := o.images["ghcr.io/acme/app"]; !ok || d.Family != "alpine" || len(d.Programs) != 1 {
		t.Errorf("images = %+v", o.images)
	}
	for _, bad := range []string{`x={"family":"windows"}`, `x={"progams":["node"]}`, `={"family":"alpine"}`, `x`} {
		if _, err := parseOptions([]string{"-image", bad}, io.Discard); err == nil {
			t.Errorf("-image %s was accepted", bad)
		}
	}
}
