package builders

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"reflect"
	"strings"
)

// Fingerprint identifies the inputs a template is built from (every field of role input, see
// TemplateSpec; not credentials, the template id or settings), so a backend can record it with a
// build and a later run can tell whether an existing template was made from the same inputs before
// adopting it: after a crash lost the state, on a retry, or when two runs race. 16 hex digits: a
// tag-sized name, collisions irrelevant here.
func (s TemplateSpec) Fingerprint() string {
	if s.fingerprint != "" {
		return s.fingerprint
	}
	startCmd, defaulted := s.StartCommand("")
	sized := s.WithDefaults()
	inputs, _ := json.Marshal(fingerprintInputs{ // strings, ints and string maps always encode
		Image: s.Image, StartCmd: startCmd, ReadyCmd: s.ReadyCommand(), BaseTemplate: s.BaseTemplate, Dockerfile: s.Dockerfile,
		DefaultStart: defaulted, Packages: s.Packages, CPUCount: sized.CPUCount, MemoryMB: sized.MemoryMB,
		RebuildTriggers: s.RebuildTriggers, MinFreeDiskMB: s.MinFreeDiskMB, Steps: fingerprintSteps(s.Steps), Added: s.addedInputs()})
	sum := sha256.Sum256(inputs)
	return hex.EncodeToString(sum[:8])
}

// fingerprintInputs is what Fingerprint hashes, in a layout existing builds are tagged with, so it
// never changes: each field names the inputs it records (records), inputs added after the first
// release are omitted when empty, and any input not recorded by a field of its own goes into Added
// (by name, when set), so a new input counts without a change here and old fingerprints stay.
type fingerprintInputs struct {
	Image           string            `records:"image"`
	StartCmd        string            `records:"start_cmd"`
	ReadyCmd        string            `records:"ready_cmd,ready_check"`
	BaseTemplate    string            `records:"base_template"`
	Dockerfile      string            `records:"dockerfile"`
	DefaultStart    bool              `records:"start_cmd"`
	Packages        []string          `records:"packages"`
	CPUCount        int               `records:"cpu_count"`
	MemoryMB        int               `records:"memory_mb"`
	RebuildTriggers map[string]string `json:",omitempty" records:"rebuild_triggers"`
	MinFreeDiskMB   *int              `json:",omitempty" records:"min_free_disk_mb"`
	Steps           []fingerprintStep `json:",omitempty" records:"steps"`
	Added           map[string]any    `json:",omitempty"`
}

// recordedInputs are the inputs fingerprintInputs records in fields of their own.
var recordedInputs = func() map[string]bool {
	recorded := map[string]bool{}
	layout := reflect.TypeFor[fingerprintInputs]()
	for i := range layout.NumField() {
		if records := layout.Field(i).Tag.Get("records"); records != "" {
			for name := range strings.SplitSeq(records, ",") {
				recorded[name] = true
			}
		}
	}
	return recorded
}()

// addedInputs are the set inputs fingerprintInputs has no field of its own for, by name.
func (s TemplateSpec) addedInputs() map[string]any {
	added := map[string]any{}
	for _, f := range specFields {
		if f.role == RoleInput && !recordedInputs[f.name] && s.isSet(f) {
			added[f.name] = reflect.ValueOf(s).Field(f.index).Interface()
		}
	}
	return added
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
