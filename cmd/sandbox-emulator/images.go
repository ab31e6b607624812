package main

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/emulator/sandboxos"
)

// imageFlags is -image, repeatable: REF=DECLARATION, the declaration a JSON object of
// sandboxos.Declaration, e.g. -image 'ghcr.io/acme/app={"family":"alpine","programs":["node"]}'.
// The E2B, OpenSandbox and Daytona emulators then run that image as declared.
type imageFlags map[string]sandboxos.Declaration

func (f imageFlags) String() string { return fmt.Sprintf("%d images", len(f)) }

func (f imageFlags) Set(v string) error {
	ref, body, ok := strings.Cut(v, "=")
	if !ok || ref == "" {
		return fmt.Errorf(`want REF={"family":...,"programs":[...],"users":[...],"entrypoint":[...]}`)
	}
	var d sandboxos.Declaration
	dec := json.NewDecoder(strings.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&d); err != nil {
		return fmt.Errorf("image %s: %w", ref, err)
	}
	if _, err := d.Image(); err != nil {
		return fmt.Errorf("image %s: %w", ref, err)
	}
	f[ref] = d
	return nil
}
