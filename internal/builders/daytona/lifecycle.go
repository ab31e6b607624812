package daytona

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders"
)

// current is the template's snapshot consumers start from: its newest active build, if any.
func current(builds []snapshot) (snapshot, bool) {
	for _, s := range builds { // newest first
		if s.State == stateActive {
			return s, true
		}
	}
	return snapshot{}, false
}

// IsUsable tells whether a sandbox create would accept the template now: it has an active
// snapshot (an inactive one is not usable, but Dormant tells it apart). templateID may also be a
// snapshot name, which is then asked about itself.
func (b *Builder) IsUsable(ctx context.Context, templateID string) (bool, error) {
	if strings.Contains(templateID, ":") {
		s, found, err := b.api.getSnapshot(ctx, templateID)
		return found && s.State == stateActive, err
	}
	builds, err := b.api.builds(ctx, templateID)
	if err != nil {
		return false, err
	}
	_, ok := current(builds)
	return ok, nil
}

// Serving returns the snapshot consumers start from ("" when none is active): recorded itself,
// with one request, while it is active; else the template's newest active build. Daytona has no
// candidates: a template's consumers always follow its newest build.
func (b *Builder) Serving(ctx context.Context, templateID string, _ bool, recorded string) (string, error) {
	if recorded != "" {
		s, found, err := b.api.getSnapshot(ctx, recorded)
		if err != nil {
			return "", err
		}
		if found && s.State == stateActive {
			return recorded, nil
		}
	}
	builds, err := b.api.builds(ctx, templateID)
	if err != nil {
		return "", err
	}
	s, _ := current(builds)
	return s.Name, nil
}

// BuiltFrom compares spec's fingerprint with the one the current snapshot's name carries.
func (b *Builder) BuiltFrom(ctx context.Context, spec builders.TemplateSpec) (builders.InputsVerdict, string, error) {
	builds, err := b.api.builds(ctx, spec.TemplateID)
	if err != nil {
		return builders.InputsUnknown, "", err
	}
	s, ok := current(builds)
	if !ok {
		return builders.InputsUnknown, "", nil
	}
	if own, _ := parseName(spec.TemplateID, s.Name); own.fingerprint == spec.Fingerprint() {
		return builders.InputsMatch, s.Name, nil
	}
	return builders.InputsDiffer, s.Name, nil
}

// Delete removes every snapshot built for the template, and its registry entry. templateID may
// be one of its snapshot names.
func (b *Builder) Delete(ctx context.Context, templateID string) error {
	if t := templateOf(templateID); t != "" {
		templateID = t
	}
	builds, err := b.api.builds(ctx, templateID)
	if err != nil {
		return err
	}
	var errs []error
	for _, s := range builds {
		if s.State == stateRemoving {
			continue
		}
		if err := b.api.deleteSnapshot(ctx, s.ID); err != nil {
			errs = append(errs, fmt.Errorf("removing %s: %w", describe(s), err))
		}
	}
	if err := b.removeRegistryEntries(ctx, templateID); err != nil {
		errs = append(errs, fmt.Errorf("removing registry entry %s: %w", registryEntryName(templateID), err))
	}
	return errors.Join(errs...)
}

// ListTemplates names the templates that have a snapshot built here (active or inactive), sorted.
func (b *Builder) ListTemplates(ctx context.Context) ([]string, error) {
	listed, err := b.api.listSnapshots(ctx, inputsMark)
	if err != nil {
		return nil, err
	}
	var names []string
	for _, s := range listed {
		if t := templateOf(s.Name); t != "" && (s.State == stateActive || s.State == stateInactive) {
			names = append(names, t)
		}
	}
	slices.Sort(names)
	return slices.Compact(names), nil
}
