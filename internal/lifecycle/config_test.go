package lifecycle

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
)

// mainTF declares every template of the sequence with one for_each resource; the values come from
// terraform.tfvars.json, which each step rewrites.
const mainTF = `
variable "templates" {
  type = map(object({
    backend          = string
    template_id      = string
    image            = string
    packages         = optional(list(string))
    start_cmd        = optional(string)
    ready_cmd        = optional(string)
    cpu_count        = optional(number)
    memory_mb        = optional(number)
    rebuild_triggers = optional(map(string))
    steps = optional(list(object({
      run = optional(object({ command = string }))
      apt = optional(object({ packages = list(string) }))
      env = optional(map(string))
      user = optional(string)
    })))
    tags             = optional(set(string))
    candidate        = optional(bool)
    force_rebuild    = optional(bool)
    keep_remotely    = optional(bool)
    timeouts         = optional(object({ create = optional(string), update = optional(string), delete = optional(string) }))
    check            = optional(string)
  }))
}

resource "sandbox_template" "t" {
  for_each         = var.templates
  backend          = each.value.backend
  template_id      = each.value.template_id
  image            = each.value.image
  packages         = each.value.packages
  start_cmd        = each.value.start_cmd
  ready_cmd        = each.value.ready_cmd
  cpu_count        = each.value.cpu_count
  memory_mb        = each.value.memory_mb
  rebuild_triggers = each.value.rebuild_triggers
  steps            = each.value.steps
  tags             = each.value.tags
  candidate        = each.value.candidate
  force_rebuild    = each.value.force_rebuild
  keep_remotely    = each.value.keep_remotely
  timeouts         = each.value.timeouts
}

# Verify before promote (E2B): a check of exactly the template's build imports a module (or, for
# "hang", runs a command that never ends until its timeout), and the tag "gate" takes the check's
# build_id, so it moves only after a pass.
resource "sandbox_template_check" "c" {
  for_each     = { for k, t in var.templates : k => t if t.check != null }
  template_ref = sandbox_template.t[each.key].build_ref
  sandbox_env  = sandbox_template.t[each.key].sandbox_env
  commands     = [{ run = each.value.check == "hang" ? "sleep infinity" : "python -c 'import ${each.value.check}'" }]
  timeout      = each.value.check == "hang" ? "2s" : "1m"
}

resource "sandbox_template_tag" "gate" {
  for_each    = sandbox_template_check.c
  backend     = "e2b"
  template_id = sandbox_template.t[each.key].template_id
  tag         = "gate"
  target      = each.value.build_id
}
`

// template is one for_each value: the attribute names are the resource's, so a state's attributes
// decode into it too.
type template struct {
	Backend         string            `json:"backend"`
	TemplateID      string            `json:"template_id"`
	Image           string            `json:"image"`
	Packages        []string          `json:"packages,omitempty"`
	StartCmd        *string           `json:"start_cmd,omitempty"`
	ReadyCmd        *string           `json:"ready_cmd,omitempty"`
	CPUCount        *int              `json:"cpu_count,omitempty"`
	MemoryMB        *int              `json:"memory_mb,omitempty"`
	RebuildTriggers map[string]string `json:"rebuild_triggers,omitempty"`
	Steps           []buildStep       `json:"steps,omitempty"`
	Tags            []string          `json:"tags,omitempty"`      // E2B only
	Candidate       bool              `json:"candidate,omitempty"` // E2B only
	ForceRebuild    bool              `json:"force_rebuild,omitempty"`
	KeepRemotely    bool              `json:"keep_remotely,omitempty"`
	Timeouts        *timeouts         `json:"timeouts,omitempty"`
	// Check (E2B only) is the module a sandbox_template_check of the template's build imports, or
	// checkHangs; the tag gateTag takes the check's build_id. A state's template attributes have none.
	Check string `json:"check,omitempty"`
}

// gateTag is the tag a template's check gates: it moves only to a build whose check passed.
const gateTag = "gate"

// checkHangs is the check whose command never ends: it fails at its timeout (TIMEOUT).
const checkHangs = "hang"

// neverInstalled is a module no package set of the generator installs: a check importing it
// never passes, so no state may record one.
const neverInstalled = "polars"

// buildStep is one of the steps the generator draws: exactly one field is set. The state holds
// every kind, the others null, which decode to nil here, so a recorded step equals its configuration.
type buildStep struct {
	Run *struct {
		Command string `json:"command"`
	} `json:"run,omitempty"`
	Apt *struct {
		Packages []string `json:"packages"`
	} `json:"apt,omitempty"`
	Env  map[string]string `json:"env,omitempty"`
	User *string           `json:"user,omitempty"`
}

type timeouts struct {
	Create string `json:"create,omitempty"`
	Update string `json:"update,omitempty"`
	Delete string `json:"delete,omitempty"`
}

const (
	backendE2B         = "e2b"
	backendOpenSandbox = "opensandbox"
	backendDaytona     = "daytona"
)

// config is the configuration of one working directory: for_each key -> template.
type config map[string]template

func (c config) clone() config {
	out := config{}
	for k, t := range c {
		b, _ := json.Marshal(t)
		var copied template
		_ = json.Unmarshal(b, &copied)
		out[k] = copied
	}
	return out
}

func (c config) keys() []string { return slices.Sorted(maps.Keys(c)) }

// tfvars is terraform.tfvars.json for c.
func (c config) tfvars() []byte {
	b, err := json.MarshalIndent(map[string]any{"templates": c}, "", "  ")
	if err != nil {
		panic(err)
	}
	return b
}

// apply applies edits: "key.attribute" sets an attribute (JSON null unsets it), "+key" adds a
// template, "-key" removes one. Edits of a key the configuration lacks are ignored, so a shrunk
// sequence still replays.
func (c config) apply(edits map[string]json.RawMessage) error {
	for _, name := range slices.Sorted(maps.Keys(edits)) {
		value := edits[name]
		switch {
		case strings.HasPrefix(name, "+"):
			var t template
			if err := json.Unmarshal(value, &t); err != nil {
				return fmt.Errorf("edit %s: %w", name, err)
			}
			c[name[1:]] = t
		case strings.HasPrefix(name, "-"):
			delete(c, name[1:])
		default:
			key, attr, ok := strings.Cut(name, ".")
			t, exists := c[key]
			if !ok {
				return fmt.Errorf("edit %q: want key.attribute, +key or -key", name)
			}
			if !exists {
				continue
			}
			fields := map[string]json.RawMessage{}
			b, _ := json.Marshal(t)
			_ = json.Unmarshal(b, &fields)
			fields[attr] = value
			b, _ = json.Marshal(fields)
			var edited template
			if err := json.Unmarshal(b, &edited); err != nil {
				return fmt.Errorf("edit %s: %w", name, err)
			}
			c[key] = edited
		}
	}
	return nil
}

// byTemplateID finds the key whose template has this id.
func (c config) byTemplateID(id string) (string, template, bool) {
	for k, t := range c {
		if t.TemplateID == id {
			return k, t, true
		}
	}
	return "", template{}, false
}

// Defaults the README documents, which a build from recorded inputs must show.
const (
	defaultCPU      = 2
	defaultMemoryMB = 1024
	// E2B, image without start_cmd: the code interpreter's start command, health-checked on 49999.
	e2bDefaultStartCmd   = "sudo --preserve-env=E2B_LOCAL /root/.jupyter/start-up.sh"
	e2bDefaultReadyPort  = "49999"
	osbCodeInterpreterEP = "/opt/code-interpreter/code-interpreter.sh"
)

// inputs are what a build is made from, with documented defaults filled in and the fields a
// backend ignores left out, so that equal inputs build equal templates.
type inputs struct {
	Image    string            `json:"image"`
	Packages []string          `json:"packages"`
	StartCmd *string           `json:"start_cmd"`
	ReadyCmd *string           `json:"ready_cmd,omitempty"`
	CPUCount int               `json:"cpu_count,omitempty"`
	MemoryMB int               `json:"memory_mb,omitempty"`
	Triggers map[string]string `json:"rebuild_triggers"`
	Steps    []buildStep       `json:"steps,omitempty"`
}

func (t template) inputs() inputs {
	in := inputs{Image: t.Image, Packages: t.Packages, StartCmd: t.StartCmd, Triggers: t.RebuildTriggers, Steps: t.Steps}
	if in.Packages == nil {
		in.Packages = []string{}
	}
	if in.Triggers == nil {
		in.Triggers = map[string]string{}
	}
	if t.Backend == backendE2B {
		in.ReadyCmd = t.ReadyCmd
	}
	if t.Backend == backendE2B || t.Backend == backendDaytona { // the backends that size a build
		in.CPUCount, in.MemoryMB = defaultCPU, defaultMemoryMB
		if t.CPUCount != nil {
			in.CPUCount = *t.CPUCount
		}
		if t.MemoryMB != nil {
			in.MemoryMB = *t.MemoryMB
		}
	}
	return in
}

// key is a comparable form of the inputs.
func (in inputs) key() string {
	b, _ := json.Marshal(in)
	return string(b)
}

// sandboxEntrypoint is the README's rule for OpenSandbox's sandbox_entrypoint.
func sandboxEntrypoint(startCmd *string) []string {
	switch {
	case startCmd == nil:
		return []string{osbCodeInterpreterEP}
	case *startCmd == "":
		return []string{"tail", "-f", "/dev/null"}
	}
	return []string{"sh", "-c", *startCmd}
}
