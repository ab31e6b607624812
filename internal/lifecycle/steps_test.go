package lifecycle

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
)

// Step verbs. A step is one line, `verb [arg] [edits]`, so a printed sequence replays as it reads.
const (
	verbApply         = "apply"          // edits, then `apply`
	verbInterrupt     = "sigint"         // edits, `apply`, Ctrl-C arg after a build starts
	verbCheckSigint   = "sigint-check"   // edits, `apply`, Ctrl-C arg after a check's sandbox starts
	verbKill          = "sigkill"        // edits, `apply`, kill -9 arg after a build starts, then recover
	verbFailNext      = "fail-next"      // the next build of template arg fails
	verbHang          = "hang"           // builds of template arg (E2B) stay building ...
	verbRelease       = "release"        // ... until released
	verbBuildDuration = "build-duration" // how long E2B builds take from now on
	verbThrottle      = "throttle"       // OpenSandbox rate-limits the next snapshot request for arg seconds: a slow build
	verbDeleteRemote  = "delete-remote"  // template arg deleted with the API, behind Terraform's back
	verbExpire        = "expire"         // Daytona deactivates template arg's active snapshots for disuse (14 days on)
	verbSecondDir     = "second-dir"     // template arg applied from a second directory while this one applies edits
	verbImport        = "import"         // template arg forgotten (`state rm`), imported, applied
	verbMoveTag       = "move-tag"       // tag of template key, arg "key:tag", moved by hand to another ready build (else removed)
	verbRemoveTag     = "remove-tag"     // tag of template key, arg "key:tag", removed by hand
	verbDestroy       = "destroy"
)

type step struct {
	Verb  string
	Arg   string
	Edits map[string]json.RawMessage
}

func (s step) String() string {
	parts := []string{s.Verb}
	if s.Arg != "" {
		parts = append(parts, s.Arg)
	}
	if len(s.Edits) > 0 {
		var b bytes.Buffer
		enc := json.NewEncoder(&b)
		enc.SetEscapeHTML(false)
		_ = enc.Encode(s.Edits)
		parts = append(parts, strings.TrimSpace(b.String()))
	}
	return strings.Join(parts, " ")
}

// parseStep reads a line String wrote.
func parseStep(line string) (step, error) {
	head, edits, hasEdits := strings.Cut(strings.TrimSpace(line), "{")
	fields := strings.Fields(head)
	if len(fields) == 0 || len(fields) > 2 {
		return step{}, fmt.Errorf("step %q: want `verb [arg] [edits]`", line)
	}
	s := step{Verb: fields[0]}
	if len(fields) == 2 {
		s.Arg = fields[1]
	}
	if hasEdits {
		if err := json.Unmarshal([]byte("{"+edits), &s.Edits); err != nil {
			return step{}, fmt.Errorf("step %q: %w", line, err)
		}
	}
	return s, nil
}

// The values the generator draws from. Images are code-interpreter images the emulators'
// catalogues know (a sequence starts with those), then images on which the default start command
// fails (the mistake a new user makes first): a Debian one, an Alpine one (apt exits 127 there),
// a Node one (no pip), and, drawn twice as often, a typo no registry has, which fails at IMAGE_PULL.
var (
	e2bCodeInterpreters = []string{"e2bdev/code-interpreter:latest", "e2bdev/code-interpreter:v1.5.2", "e2bdev/code-interpreter:latest", "e2bdev/code-interpreter:latest"}
	osbCodeInterpreters = []string{"opensandbox/code-interpreter:v1.1.0", "opensandbox/code-interpreter:v1.2.0", "opensandbox/code-interpreter:v1.1.0", "opensandbox/code-interpreter:v1.1.0"}
	e2bImages           = append(slices.Clone(e2bCodeInterpreters), "python:3.12-slim", "python:3.12-alpine", "node:20", typoImage, typoImage)
	osbImages           = append(slices.Clone(osbCodeInterpreters), "python:3.12", "python:3.12-alpine", "node:20", typoImage, typoImage)
	packageSets         = [][]string{nil, {"numpy"}, {"pandas==2.2.3"}, {"numpy", "requests>=2"}}
	startCmds           = []*string{nil, nil, ptr(""), ptr("python3 -m http.server 8080")}
	readyCmds           = []*string{nil, nil, ptr("sleep 1")}
	cpuCounts           = []*int{nil, ptr(1), ptr(2), ptr(4)}
	memorySizes         = []*int{nil, ptr(512), ptr(2048)}
	triggerSets         = []map[string]string{nil, {"requirements": "h1"}, {"requirements": "h2"}}
	tagSets             = [][]string{nil, {"v1"}, {"v1", "stable"}, {"v2"}}
	// Steps: some build, some fail midway (a command that exits non-zero after others ran), some
	// switch to another user for what follows.
	stepSets = [][]buildStep{nil, {aptStep("ffmpeg")}, {envStep("MPLBACKEND", "Agg"), runStep("python3 -c 'import os'")},
		{aptStep("ffmpeg"), envStep("MPLBACKEND", "Agg")}, {runStep("definitely-not-installed --version")},
		{runStep("echo one"), runStep("false")}, {envStep("A", "1"), runStep("exit 3")}, {runStep("test -n \"$HOME\" && false")},
		{userStep("analyst"), runStep("id -un")}, {aptStep("ffmpeg"), userStep("analyst"), envStep("MPLBACKEND", "Agg")},
		{userStep("analyst"), runStep(`test "$(id -un)" = analyst`)}}
	// checkModules are what a check imports: numpy, which some package sets install, or a module
	// none does; or a check that hangs until its timeout; "" removes the check.
	checkModules   = []string{"numpy", "numpy", neverInstalled, checkHangs, ""}
	buildTimeouts  = []string{"1s", "2s", "5s", "5s", "20s"}
	buildDurations = []string{"0s", "300ms", "800ms", "1500ms", "3s"}
	// daytonaImages are pinned, so neither a plan nor a build asks a registry for a digest.
	daytonaImages = []string{"python:3.12-slim@sha256:78387bc3881b8273120a12ebe6c1ab22b018ccc2c9adf565ae1ac9b536e184ea",
		"python:3.12@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"}
	// daytonaMemorySizes are whole GB: Daytona sizes snapshots in GB.
	daytonaMemorySizes = []*int{nil, ptr(1024), ptr(2048), ptr(4096)}
	signalDelays       = []string{"0s", "0s", "200ms", "700ms"}
)

func ptr[T any](v T) *T { return &v }

func aptStep(packages ...string) (s buildStep) {
	s.Apt = &struct {
		Packages []string `json:"packages"`
	}{packages}
	return s
}

func envStep(name, value string) buildStep { return buildStep{Env: map[string]string{name: value}} }

func userStep(name string) buildStep { return buildStep{User: &name} }

// typoImage is python:3.12 misspelt: a repository Docker Hub does not have.
const typoImage = "pyhton:3.12"

// switchesUser tells whether steps has a user step.
func switchesUser(steps []buildStep) bool {
	return slices.ContainsFunc(steps, func(s buildStep) bool { return s.User != nil })
}

func runStep(command string) (s buildStep) {
	s.Run = &struct {
		Command string `json:"command"`
	}{command}
	return s
}

// generator draws a sequence from a seed. It tracks the configuration the steps build up (never
// what the steps lead to), so the same seed always makes the same steps.
type generator struct {
	rng  *rand.Rand
	cfg  config
	keys int
}

func generate(seed uint64, length int) []step {
	g := &generator{rng: rand.New(rand.NewPCG(seed, 0x11fec7c1e)), cfg: config{}}
	first := step{Verb: verbApply, Edits: map[string]json.RawMessage{}}
	for _, backend := range []string{backendE2B, backendE2B, backendOpenSandbox, backendDaytona} {
		g.addTemplate(first.Edits, backend, false)
	}
	steps := []step{g.commit(first)}
	for len(steps) < length {
		steps = append(steps, g.commit(g.next()))
	}
	return steps
}

// commit records the configuration a step leaves.
func (g *generator) commit(s step) step {
	if err := g.cfg.apply(s.Edits); err != nil {
		panic(err)
	}
	return s
}

func pick[T any](g *generator, values []T) T { return values[g.rng.IntN(len(values))] }

func (g *generator) key(backends ...string) string {
	var keys []string
	for _, k := range g.cfg.keys() {
		if len(backends) == 0 || slices.Contains(backends, g.cfg[k].Backend) {
			keys = append(keys, k)
		}
	}
	if len(keys) == 0 {
		return ""
	}
	return pick(g, keys)
}

// next draws one step, weighted towards changing E2B templates and making their builds misbehave.
func (g *generator) next() step {
	weighted := []struct {
		weight int
		make   func() (step, bool)
	}{
		{26, g.changeInput},
		{8, g.changeSetting},
		{6, g.changeRelease},
		{10, g.changeCheck},
		{3, g.interruptCheck},
		// No fail-next on Daytona: its emulator fails no build on demand (faults answer requests).
		{7, func() (step, bool) { return g.onTemplate(verbFailNext, backendE2B, backendOpenSandbox) }},
		{4, func() (step, bool) { return g.onTemplate(verbHang, backendE2B) }},
		{4, func() (step, bool) { return g.onTemplate(verbRelease, backendE2B) }},
		{6, func() (step, bool) { return step{Verb: verbBuildDuration, Arg: pick(g, buildDurations)}, true }},
		{3, func() (step, bool) { return step{Verb: verbThrottle, Arg: pick(g, []string{"1", "2", "3"})}, true }},
		{6, func() (step, bool) { return g.signal(verbInterrupt) }},
		{6, func() (step, bool) { return g.signal(verbKill) }},
		{5, func() (step, bool) { return g.onTemplate(verbDeleteRemote) }},
		{4, func() (step, bool) { return g.onTemplate(verbExpire, backendDaytona) }},
		{6, g.secondDir},
		{5, func() (step, bool) { return g.onTemplate(verbImport) }},
		{5, func() (step, bool) { return g.onTag(verbMoveTag) }},
		{3, func() (step, bool) { return g.onTag(verbRemoveTag) }},
		{4, g.add},
		{3, g.remove},
		{3, func() (step, bool) { return step{Verb: verbDestroy}, true }},
		{3, func() (step, bool) { return step{Verb: verbApply}, true }},
	}
	total := 0
	for _, w := range weighted {
		total += w.weight
	}
	for {
		n := g.rng.IntN(total)
		for _, w := range weighted {
			if n -= w.weight; n < 0 {
				if s, ok := w.make(); ok {
					return s
				}
				break
			}
		}
	}
}

func (g *generator) onTemplate(verb string, backends ...string) (step, bool) {
	k := g.key(backends...)
	return step{Verb: verb, Arg: k}, k != ""
}

// onTag draws a tag the configuration gives an E2B template: arg "key:tag".
func (g *generator) onTag(verb string) (step, bool) {
	var tagged []string
	for _, k := range g.cfg.keys() {
		for _, tag := range g.cfg[k].Tags {
			tagged = append(tagged, k+":"+tag)
		}
	}
	if len(tagged) == 0 {
		return step{}, false
	}
	return step{Verb: verb, Arg: pick(g, tagged)}, true
}

// inputEdit changes one build input of key k to another value, adding the edit to edits (which
// holds the step's other edits). On E2B a user step never goes with the default start command: E2B
// runs it as the last USER, who has no sudo, and the provider refuses that at plan; so steps with a
// user step come with a start command of their own, and the start command stays set while they do.
func (g *generator) inputEdit(k string, edits map[string]json.RawMessage) {
	edited := g.cfg.clone()
	_ = edited.apply(edits)
	t := edited[k]
	fields := []string{"image", "packages", "start_cmd", "rebuild_triggers", "rebuild_triggers", "steps", "steps"}
	switch t.Backend {
	case backendE2B:
		fields = append(fields, "ready_cmd", "cpu_count", "memory_mb")
	case backendDaytona: // image, packages, triggers and size; its steps, start_cmd are not drawn
		fields = []string{"image", "packages", "rebuild_triggers", "rebuild_triggers", "cpu_count", "memory_mb"}
	}
	field := pick(g, fields)
	for {
		var v any
		switch field {
		case "image":
			v = pick(g, map[string][]string{backendE2B: e2bImages, backendOpenSandbox: osbImages, backendDaytona: daytonaImages}[t.Backend])
		case "packages":
			v = pick(g, packageSets)
		case "start_cmd":
			v = pick(g, startCmds)
		case "ready_cmd":
			v = pick(g, readyCmds)
		case "cpu_count":
			v = pick(g, cpuCounts)
		case "memory_mb":
			v = pick(g, memorySizes)
			if t.Backend == backendDaytona {
				v = pick(g, daytonaMemorySizes)
			}
		case "steps":
			v = pick(g, stepSets)
		default:
			v = pick(g, triggerSets)
		}
		if t.Backend == backendE2B && field == "start_cmd" && v == (*string)(nil) && switchesUser(t.Steps) {
			continue
		}
		if was, _ := json.Marshal(fieldOf(t, field)); string(was) == string(mustJSON(v)) {
			continue
		}
		edits[k+"."+field] = mustJSON(v)
		if steps, ok := v.([]buildStep); ok && t.Backend == backendE2B && t.StartCmd == nil && switchesUser(steps) {
			edits[k+".start_cmd"] = mustJSON(pick(g, slices.DeleteFunc(slices.Clone(startCmds), func(c *string) bool { return c == nil })))
		}
		return
	}
}

func fieldOf(t template, field string) any {
	var fields map[string]any
	_ = json.Unmarshal(mustJSON(t), &fields)
	return fields[field]
}

func mustJSON(v any) json.RawMessage {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		panic(err)
	}
	return bytes.TrimSpace(b.Bytes())
}

func (g *generator) changeInput() (step, bool) {
	s := step{Verb: verbApply, Edits: map[string]json.RawMessage{}}
	for range 1 + g.rng.IntN(2) {
		g.inputEdit(g.key(), s.Edits)
	}
	return s, true
}

// changeSetting changes what must not rebuild: keep_remotely, force_rebuild or timeouts.
func (g *generator) changeSetting() (step, bool) {
	k := g.key()
	t := g.cfg[k]
	s := step{Verb: verbApply, Edits: map[string]json.RawMessage{}}
	switch g.rng.IntN(3) {
	case 0:
		s.Edits[k+".keep_remotely"] = mustJSON(!t.KeepRemotely)
	case 1:
		s.Edits[k+".force_rebuild"] = mustJSON(!t.ForceRebuild)
	default:
		s.Edits[k+".timeouts"] = mustJSON(g.timeouts())
	}
	return s, true
}

// changeRelease changes what goes live on an E2B template: tags, or whether its builds are
// candidates, alone (no build: tags move, or the candidate goes live) or with a build input.
func (g *generator) changeRelease() (step, bool) {
	k := g.key(backendE2B)
	if k == "" {
		return step{}, false
	}
	s := step{Verb: verbApply, Edits: map[string]json.RawMessage{}}
	if g.rng.IntN(2) == 0 {
		s.Edits[k+".candidate"] = mustJSON(!g.cfg[k].Candidate)
	} else {
		s.Edits[k+".tags"] = mustJSON(pick(g, tagSets))
	}
	if g.rng.IntN(3) == 0 {
		g.inputEdit(k, s.Edits)
	}
	return s, true
}

// changeCheck gives an E2B template a check that gates its tag "gate" (config_test.go), takes it
// away, or changes the module it imports: one its packages may install, or neverInstalled, whose
// check always fails, or makes it hang until its timeout; sometimes with a build input, so the
// check runs on a new build.
func (g *generator) changeCheck() (step, bool) {
	k := g.key(backendE2B)
	if k == "" {
		return step{}, false
	}
	s := step{Verb: verbApply, Edits: map[string]json.RawMessage{}}
	for {
		module := pick(g, checkModules)
		if module != g.cfg[k].Check {
			s.Edits[k+".check"] = mustJSON(module)
			if module == "" {
				s.Edits[k+".check"] = json.RawMessage("null")
			}
			break
		}
	}
	if g.rng.IntN(2) == 0 {
		g.inputEdit(k, s.Edits)
	}
	return s, true
}

// interruptCheck interrupts an apply while a check of an E2B template runs: one that hangs, so
// that it still runs when the signal comes.
func (g *generator) interruptCheck() (step, bool) {
	var checked []string
	for _, k := range g.cfg.keys() {
		if g.cfg[k].Check != "" {
			checked = append(checked, k)
		}
	}
	if len(checked) == 0 {
		return step{}, false
	}
	k := pick(g, checked)
	s := step{Verb: verbCheckSigint, Arg: pick(g, signalDelays), Edits: map[string]json.RawMessage{}}
	if g.cfg[k].Check != checkHangs {
		s.Edits[k+".check"] = mustJSON(checkHangs)
	}
	return s, true
}

func (g *generator) timeouts() timeouts {
	return timeouts{Create: pick(g, buildTimeouts), Update: pick(g, buildTimeouts), Delete: "20s"}
}

// signal interrupts an apply that changes an input or creates templates, a while after its first
// build starts.
func (g *generator) signal(verb string) (step, bool) {
	s, ok := g.add()
	if !ok || g.rng.IntN(2) == 0 {
		s, _ = g.changeInput()
	}
	s.Verb, s.Arg = verb, pick(g, signalDelays)
	return s, true
}

func (g *generator) secondDir() (step, bool) {
	k := g.key()
	s := step{Verb: verbSecondDir, Arg: k}
	if g.rng.IntN(2) == 0 { // this directory changes that template at the same time
		s.Edits = map[string]json.RawMessage{}
		g.inputEdit(k, s.Edits)
	}
	return s, true
}

// add creates one to three templates at once, some from an image their default start command
// cannot run on.
func (g *generator) add() (step, bool) {
	if len(g.cfg) >= 6 {
		return step{}, false
	}
	s := step{Verb: verbApply, Edits: map[string]json.RawMessage{}}
	for range 1 + g.rng.IntN(3) {
		g.addTemplate(s.Edits, pick(g, []string{backendE2B, backendE2B, backendOpenSandbox, backendDaytona}), len(g.cfg) > 0)
	}
	return s, true
}

func (g *generator) remove() (step, bool) {
	if len(g.cfg) < 2 {
		return step{}, false
	}
	return step{Verb: verbApply, Edits: map[string]json.RawMessage{"-" + g.key(): json.RawMessage("null")}}, true
}

// addTemplate adds a new key with a fresh template id and drawn inputs; any image when
// anyImage, else only code-interpreter images.
func (g *generator) addTemplate(edits map[string]json.RawMessage, backend string, anyImage bool) {
	k := string(rune('a' + g.keys))
	g.keys++
	images := map[string][]string{backendE2B: e2bImages, backendOpenSandbox: osbImages, backendDaytona: daytonaImages}[backend]
	if !anyImage {
		images = map[string][]string{backendE2B: e2bCodeInterpreters, backendOpenSandbox: osbCodeInterpreters, backendDaytona: daytonaImages}[backend]
	}
	t := template{Backend: backend, TemplateID: "lc-" + k, Image: pick(g, images), Packages: pick(g, packageSets),
		RebuildTriggers: pick(g, triggerSets), Timeouts: ptr(g.timeouts())}
	switch backend { // tags (and checks that gate them, changeCheck) are E2B's alone
	case backendE2B:
		t.CPUCount, t.MemoryMB, t.Tags = pick(g, cpuCounts), pick(g, memorySizes), pick(g, tagSets)
	case backendDaytona:
		t.CPUCount, t.MemoryMB = pick(g, cpuCounts), pick(g, daytonaMemorySizes)
	}
	edits["+"+k] = mustJSON(t)
}
