// Package backends is the one list of sandbox backends. A new backend is a package exporting a
// builders.Backend, plus one line in All.
package backends

import (
	"fmt"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders"
	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders/bedrock"
	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders/daytona"
	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders/e2b"
	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders/opensandbox"
	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders/registrylogin"
)

// All lists every backend, in documentation order.
var All = []*builders.Backend{
	&e2b.Backend,
	&opensandbox.Backend,
	&daytona.Backend,
	&bedrock.Backend,
}

// ImportDefault is the backend of an import ID that names none ("<template_id>"), as the import
// example (examples/resources/sandbox_template/import.sh) documents it.
var ImportDefault = &e2b.Backend

// SharedSettings are provider settings no single backend owns: ECR's endpoint serves every
// registry login exchanged client side.
var SharedSettings = []builders.Setting{registrylogin.SettingECREndpoint}

// Named returns the backend called name.
func Named(name string) (*builders.Backend, error) {
	for _, b := range All {
		if string(b.Name) == name {
			return b, nil
		}
	}
	return nil, fmt.Errorf("unknown backend %q: must be one of %v", name, Names(All))
}

// Names are the names of bs.
func Names(bs []*builders.Backend) []string {
	names := make([]string, len(bs))
	for i, b := range bs {
		names[i] = string(b.Name)
	}
	return names
}

// Where lists the backends for which keep is true, in All's order.
func Where(keep func(*builders.Backend) bool) []*builders.Backend {
	var kept []*builders.Backend
	for _, b := range All {
		if keep(b) {
			kept = append(kept, b)
		}
	}
	return kept
}
