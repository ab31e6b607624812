package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
)

// providerAddress is the sandbox provider's address in `providers schema -json`.
const providerAddress = "registry.terraform.io/sandboxtf/sandbox"

// startupResult is `terraform providers schema -json` with the provider and without it (only
// Terraform's built-in provider), so the difference is what starting the provider adds.
type startupResult struct {
	with, without []float64
	attributes    int // sandbox_template's, nested ones included
}

func (b *bench) schemaRuns(r *results) error {
	with, without := filepath.Join(b.work, "schema-with"), filepath.Join(b.work, "schema-without")
	if err := writeConfig(with, sandbox, "schema"); err != nil {
		return err
	}
	if err := writeConfig(without, data, "schema"); err != nil {
		return err
	}
	for range b.o.runs {
		took, err := b.tf(with, "schema", b.fast.url, "providers", "schema", "-json")
		if err != nil {
			return err
		}
		r.startup.with = append(r.startup.with, took)
		if took, err = b.tf(without, "schema", b.fast.url, "providers", "schema", "-json"); err != nil {
			return err
		}
		r.startup.without = append(r.startup.without, took)
	}
	out, err := os.ReadFile(filepath.Join(with, "schema.log"))
	if err != nil {
		return err
	}
	r.startup.attributes, err = templateAttributes(out)
	return err
}

// templateAttributes counts sandbox_template's attributes in `providers schema -json` output,
// nested ones included: the keys of every "attributes" object under its schema.
func templateAttributes(schemaJSON []byte) (int, error) {
	var doc struct {
		ProviderSchemas map[string]struct {
			ResourceSchemas map[string]any `json:"resource_schemas"`
		} `json:"provider_schemas"`
	}
	if err := json.Unmarshal(schemaJSON, &doc); err != nil {
		return 0, fmt.Errorf("the schema output is not JSON: %w", err)
	}
	tmpl, ok := doc.ProviderSchemas[providerAddress].ResourceSchemas["sandbox_template"]
	if !ok {
		return 0, fmt.Errorf("the schema output holds no sandbox_template of %s", providerAddress)
	}
	return countAttributes(tmpl), nil
}

func countAttributes(v any) int {
	count := 0
	switch v := v.(type) {
	case map[string]any:
		for key, child := range v {
			if attrs, ok := child.(map[string]any); ok && key == "attributes" {
				count += len(attrs)
			}
			count += countAttributes(child)
		}
	case []any:
		for _, child := range v {
			count += countAttributes(child)
		}
	}
	return count
}
