package main

import (
	"fmt"
	"os"
	"path/filepath"
)

// kind is what a configuration holds N of.
type kind string

const (
	sandbox    kind = "sandbox_template"
	data       kind = "terraform_data" // the baseline: built into the CLI
	floorThing kind = "floor_thing"    // internal/benchfloor's smallest framework resource
	floorTmpl  kind = "floor_template" // sandbox_template's schema, no logic
)

// kinds is the scale measurement's order at rep 1; later reps rotate it (kindsOf).
var kinds = []kind{sandbox, data, floorThing, floorTmpl}

// kindsOf rotates the kinds from rep to rep, so that none always runs on a warmer machine.
func kindsOf(rep int) []kind {
	shift := (rep - 1) % len(kinds)
	return append(append([]kind{}, kinds[shift:]...), kinds[:shift]...)
}

// writeConfig writes dir/main.tf: var.n resources of k, their ids or inputs prefix-<index>.
// floor_template takes exactly sandbox_template's configuration.
func writeConfig(dir string, k kind, prefix string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	var hcl string
	switch k {
	case sandbox, floorTmpl:
		provider := map[kind]string{sandbox: "sandbox", floorTmpl: "floor"}[k]
		hcl = fmt.Sprintf(`terraform {
  required_providers {
    %[1]s = { source = "sandboxtf/%[1]s" }
  }
}
provider "%[1]s" {}
variable "n" { type = number }
resource "%[1]s_template" "t" {
  count       = var.n
  backend     = "e2b"
  template_id = "%[2]s-${count.index}"
  image       = "python:3.12-slim"
  start_cmd   = "" # a plain image: no start command (the default is the code interpreter's)
}
`, provider, prefix)
	case floorThing:
		hcl = fmt.Sprintf(`terraform {
  required_providers {
    floor = { source = "sandboxtf/floor" }
  }
}
variable "n" { type = number }
resource "floor_thing" "t" {
  count = var.n
  input = "%s-${count.index}"
}
`, prefix)
	case data:
		hcl = fmt.Sprintf(`variable "n" { type = number }
resource "terraform_data" "t" {
  count = var.n
  input = "%s-${count.index}"
}
`, prefix)
	default:
		return fmt.Errorf("no configuration for %s", k)
	}
	return os.WriteFile(filepath.Join(dir, "main.tf"), []byte(hcl), 0o644)
}
