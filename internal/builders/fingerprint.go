package builders

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
)

// Fingerprint identifies the inputs a template is built from (every build input, rebuild_triggers
// included; not credentials, the template id or force_rebuild), so a backend can record it with a
// build and a later run can tell whether an existing template was made from the same inputs before
// adopting it: after a crash lost the state, on a retry, or when two runs race. 16 hex digits: a
// tag-sized name, collisions irrelevant here. Inputs added after the first release are omitted
// when empty, so the fingerprints of existing builds stay what they were.
func (s TemplateSpec) Fingerprint() string {
	startCmd, defaulted := s.StartCommand("")
	sized := s.WithDefaults()
	inputs, _ := json.Marshal(struct { // strings, ints and string maps always encode
		Image, StartCmd, ReadyCmd, BaseTemplate, Dockerfile string
		DefaultStart                                        bool
		Packages                                            []string
		CPUCount, MemoryMB                                  int
		RebuildTriggers                                     map[string]string `json:",omitempty"`
		MinFreeDiskMB                                       *int              `json:",omitempty"`
		Steps                                               []fingerprintStep `json:",omitempty"`
	}{s.Image, startCmd, s.ReadyCommand(), s.BaseTemplate, s.Dockerfile, defaulted, s.Packages, sized.CPUCount, sized.MemoryMB,
		s.RebuildTriggers, s.MinFreeDiskMB, fingerprintSteps(s.Steps)})
	sum := sha256.Sum256(inputs)
	return hex.EncodeToString(sum[:8])
}

// fingerprintStep is a step as the fingerprint records it: a file step by what it places (Files,
// its files hash), not by where the files are on this machine.
type fingerprintStep struct {
	BuildStep
	Files string `json:",omitempty"`
}

func fingerprintSteps(steps []BuildStep) []fingerprintStep {
	out := make([]fingerprintStep, len(steps))
	for i, step := range steps {
		out[i].BuildStep = step
		if step.File != nil {
			file := *step.File
			out[i].Files, _ = file.filesDigest()
			file.Source = ""
			out[i].File = &file
		}
	}
	return out
}

// InputsVerdict is what a backend can tell about the inputs of an existing template's usable build.
type InputsVerdict int

const (
	InputsUnknown InputsVerdict = iota // the build carries no fingerprint (another tool, an older provider)
	InputsMatch                        // built from the same inputs
	InputsDiffer                       // built from other inputs
)

// InputsChecker is a Builder that records Fingerprint with each build and can read it back.
type InputsChecker interface {
	// BuiltFrom compares spec's Fingerprint with the one recorded on the build spec's consumers
	// start (the plain template name's; a candidate's: a ready build of these inputs), and returns
	// that build's id, "" when there is none: the template is then not usable for spec.
	BuiltFrom(ctx context.Context, spec TemplateSpec) (verdict InputsVerdict, served string, err error)
}
