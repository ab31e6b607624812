package main

import (
	"io"
	"os"
	"path/filepath"
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

// TestGuideImageDeclaration: the local-emulator guide's image.json is a value -image takes as the
// guide shows it, -image "ghcr.io/acme/app=$(cat image.json)" (its provider test posts the same JSON
// to the control paths).
func TestGuideImageDeclaration(t *testing.T) {
	declaration, err := os.ReadFile(filepath.Join("..", "..", "examples", "guides", "local-emulator", "private-image", "image.json"))
	if err != nil {
		t.Fatal(err)
	}
	o, err := parseOptions([]string{"-image", "ghcr.io/acme/app=" + string(declaration)}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if d := o.images["ghcr.io/acme/app"]; d.Family != "alpine" || len(d.Users) == 0 {
		t.Errorf("images = %+v", o.images)
	}
}
