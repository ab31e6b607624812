package daytona

import (
	"context"
	"errors"
	"fmt"
	"net/http"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders"
	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders/imagedigest"
)

// Build makes the template's snapshot for spec's inputs active and returns its name as the
// template_ref: an existing snapshot of these inputs is adopted (active: nothing to do; being
// built: waited for; inactive: activated; failed: removed and built again under the next name),
// otherwise a new one is created. Only once it is active are the template's other snapshots (the
// ones it supersedes) removed, so consumers never lack an active snapshot. force_rebuild builds a
// new snapshot whatever exists.
func (b *Builder) Build(ctx context.Context, spec builders.TemplateSpec, obs builders.Observer) (builders.TemplateBuildResult, error) {
	log := &builders.BuildLog{Secrets: spec.StepSecrets(), Progress: obs.OnProgress}
	built, err := b.settle(ctx, spec, log, obs)
	if cleanupErr := b.removeRegistryEntries(ctx, spec.TemplateID); cleanupErr != nil {
		log.Addf("warning: could not remove the registry entry %s: %v", registryEntryName(spec.TemplateID), cleanupErr)
	}
	if err != nil {
		return builders.TemplateBuildResult{}, withLogs(err, log.Lines())
	}
	b.removeSuperseded(ctx, spec.TemplateID, built, log)
	result := builders.Succeeded(Name, built.Name, log.Lines())
	result.BuildID = built.Name
	return result, nil
}

// withLogs is err, at its own stage (TEMPLATE_BUILD when it has none), carrying the build's log.
func withLogs(err error, logs []string) error {
	if se, ok := errors.AsType[*builders.StageError](err); ok && error(se) == err {
		return &builders.StageError{Stage: se.Stage, Err: se.Err, Logs: logs}
	}
	return builders.AtStage(builders.StageOf(err, builders.StageTemplateBuild), err, logs...)
}

// settle returns the active snapshot of spec's inputs: adopted, or created.
func (b *Builder) settle(ctx context.Context, spec builders.TemplateSpec, log *builders.BuildLog, obs builders.Observer) (snapshot, error) {
	fingerprint := spec.Fingerprint()
	existing, err := b.api.builds(ctx, spec.TemplateID)
	if err != nil {
		return snapshot{}, err
	}
	generation := 0
	for _, s := range existing { // newest first
		own, _ := parseName(spec.TemplateID, s.Name)
		if own.fingerprint != fingerprint {
			continue
		}
		generation = max(generation, own.generation+1) // a name is never reused
		if spec.ForceRebuild {
			continue
		}
		switch {
		case s.State == stateActive:
			log.Addf("%s was already built from these inputs: adopted", s.Name)
			return s, nil
		case s.inProgress():
			log.Addf("%s is already being built from these inputs: waiting for it", s.Name)
			obs.Created(builders.TemplateRef{Provider: Name, Value: s.Name})
			return b.waitActive(ctx, s, log)
		case s.State == stateInactive:
			log.Addf("%s was built from these inputs and is inactive: activating it instead of building again", s.Name)
			obs.Created(builders.TemplateRef{Provider: Name, Value: s.Name})
			return b.activate(ctx, s, log)
		case s.failed():
			log.Addf("%s failed earlier (%s: %s): removing it and building again", s.Name, s.State, s.reason())
			if err := b.api.deleteSnapshot(ctx, s.ID); err != nil {
				return snapshot{}, builders.AtStage(builders.StageTemplateCreate, fmt.Errorf("removing failed %s: %w", describe(s), err))
			}
		}
	}
	return b.create(ctx, spec, snapshotName(spec.TemplateID, fingerprint, generation), log, obs)
}

// create creates the snapshot called name and waits until it is active. A 409 (the name exists:
// a concurrent run created it since the list) is never the user's: that snapshot is adopted.
func (b *Builder) create(ctx context.Context, spec builders.TemplateSpec, name string, log *builders.BuildLog, obs builders.Observer) (snapshot, error) {
	image, err := b.pinnedImage(ctx, spec)
	if err != nil {
		return snapshot{}, err
	}
	if spec.RegistryAuth != nil {
		if err := b.writeRegistryEntry(ctx, spec.TemplateID, image, spec.RegistryAuth, log); err != nil {
			return snapshot{}, err
		}
	}
	sized := spec.WithDefaults()
	req := createSnapshot{Name: name, CPU: sized.CPUCount, Memory: sized.MemoryMB / mbPerGB, GPU: spec.GPUCount, RegionID: b.cfg.Target}
	if spec.DiskGB != nil {
		req.Disk = *spec.DiskGB
	}
	if needsBuild(spec) {
		contexts, err := buildContexts(spec)
		if err != nil {
			return snapshot{}, builders.AtStage(builders.StageValidation, err)
		}
		hashes, err := b.uploadContexts(ctx, contexts, log)
		if err != nil {
			return snapshot{}, builders.AtStageIfBare(builders.StageTemplateCreate, err)
		}
		req.BuildInfo = &buildInfo{DockerfileContent: dockerfile(image, spec, contexts), ContextHashes: hashes}
	} else {
		req.ImageName, req.Entrypoint = image, startEntrypoint(spec)
	}
	log.Addf("creating snapshot %s from %s", name, image)
	created, err := b.api.createSnapshot(ctx, req, spec.StepSecrets())
	if builtConcurrently(err) {
		found, ok, getErr := b.api.getSnapshot(ctx, name)
		if getErr != nil || !ok {
			return snapshot{}, builders.AtStage(builders.StageTemplateCreate, err)
		}
		log.Addf("%s was created meanwhile by another run: adopted", name)
		created, err = found, nil
	}
	if err != nil {
		return snapshot{}, builders.AtStage(builders.StageTemplateCreate, fmt.Errorf("creating snapshot %s: %w", name, err))
	}
	obs.Created(builders.TemplateRef{Provider: Name, Value: created.Name})
	active, err := b.waitActive(ctx, created, log)
	if err == nil {
		b.addBuildLog(ctx, active, log) // what the build printed (a failed one's is read by waitActive)
	}
	return active, err
}

func builtConcurrently(err error) bool { return statusOf(err) == http.StatusConflict }

// pinnedImage is spec's image pinned by digest: the snapshot is then built from exactly the image
// its name's inputs record, and Daytona, which refuses ":latest" and a reference without a tag,
// takes it. An image already pinned is sent as it is, with no registry request.
func (b *Builder) pinnedImage(ctx context.Context, spec builders.TemplateSpec) (string, error) {
	if imagedigest.Pinned(spec.Image) {
		return spec.Image, nil
	}
	resolve := b.cfg.ResolveDigest
	if resolve == nil {
		resolve = imagedigest.Resolver{Login: b.registryLoginFor}.Resolve
	}
	digest, err := resolve(ctx, spec.Image, spec.RegistryAuth)
	if err != nil {
		return "", builders.AtStageIfBare(builders.StageImagePull, fmt.Errorf("pinning %s to its digest: %w", spec.Image, err))
	}
	return imagedigest.WithDigest(spec.Image, digest), nil
}

// RemoveSuperseded removes the template's snapshots other than kept, which an adoption (no Build)
// leaves, as removeSuperseded does after a build (builders.Superseder).
func (b *Builder) RemoveSuperseded(ctx context.Context, templateID, kept string) []string {
	log := &builders.BuildLog{}
	current, found, err := b.api.getSnapshot(ctx, kept)
	switch {
	case err != nil:
		log.Addf("warning: could not look up %s to remove what it supersedes: %v", kept, err)
	case found && current.State == stateActive:
		b.removeSuperseded(ctx, templateID, current, log)
	}
	return log.Lines()
}

// removeSuperseded removes the template's snapshots other than current, now that current is
// active. A failure is a log line, not a failed build: the next build removes what is left.
func (b *Builder) removeSuperseded(ctx context.Context, templateID string, current snapshot, log *builders.BuildLog) {
	existing, err := b.api.builds(ctx, templateID)
	if err != nil {
		log.Addf("warning: could not list the snapshots %s supersedes: %v", current.Name, err)
		return
	}
	for _, s := range existing {
		if s.ID == current.ID || s.State == stateRemoving {
			continue
		}
		if err := b.api.deleteSnapshot(ctx, s.ID); err != nil {
			log.Addf("warning: could not remove superseded %s: %v", describe(s), err)
			continue
		}
		log.Addf("removed superseded snapshot %s", s.Name)
	}
}
