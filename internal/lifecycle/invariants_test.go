package lifecycle

import (
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders"
)

// The invariants, as README.md's "What state promises" words them.
const (
	invCrash      = "the CLI does not crash"
	invStateFile  = "the state file parses, and no lock outlives a run that was not killed"
	invServed     = "a template recorded SUCCESS or SKIPPED is served by a ready build made from exactly the recorded inputs"
	invRetry      = "a template recorded FAILED plans a retry"
	invConverge   = "an apply that succeeds leaves nothing to plan"
	invNoRebuild  = "a template is built only when its inputs call for it"
	invOrphan     = "no template exists that no state records, except one kept by keep_remotely, by an interrupted create, or left out by a failed create on Terraform 1.16"
	invSandboxes  = "no OpenSandbox builder sandbox outlives the apply that started it"
	invCandidate  = "a candidate build never goes live by itself, and each tag a record names starts its build"
	invStepFinish = "every CLI run finishes, and the emulator answers"
	invTagDrift   = "a tag of a record moved or removed outside Terraform shows as drift (a refresh-only plan), and the plan points it back"
	invPull       = "a template whose image no registry has is never recorded SUCCESS or SKIPPED, and its failure is at IMAGE_PULL"
	invCheckGate  = "a tag whose target comes from a check never points at a build whose check failed or never ran"
	invCheckSbx   = "no sandbox started by a check outlives the apply that started it (after kill -9, the backend's timeout)"
	invSuperseded = "a Daytona rebuild that succeeded leaves no other active snapshot of its template (the superseded one is removed)"
)

type violation struct{ invariant, detail string }

func (v violation) String() string {
	return v.invariant + ":\n      " + strings.ReplaceAll(v.detail, "\n", "\n      ")
}

// crashed matches what a crash prints: the CLI's own (exit 11, "TERRAFORM CRASH", "OPENTOFU
// CRASH", a Go panic), a plugin's ("plugin crashed!"), or a panic the provider caught in a builder.
var crashed = regexp.MustCompile(`(?m)^panic: |CRASH !!!|plugin crashed|panic in builder`)

// check runs after every step: the step's runs, then a plan in each directory the step touched,
// then what the emulator serves and holds. It also keeps s.prior for the next step.
func (s *sequence) check(out *outcome, builtBefore map[string]madeFrom) []violation {
	var vs []violation
	add := func(inv, format string, args ...any) { vs = append(vs, violation{inv, fmt.Sprintf(format, args...)}) }
	recorded, earlier := map[string]bool{}, s.prior
	for _, d := range append([]*workdir{s.dirs[0]}, out.checked...) {
		state, err := d.readState()
		if err != nil {
			add(invStateFile, "%s: %v", d.name, err)
		}
		if d.lockLeft() {
			add(invStateFile, "%s: %s is left behind", d.name, lockFile)
		}
		for _, i := range state {
			recorded[i.template().TemplateID] = true
		}
		p, runs, err := d.plan()
		out.runs = append(out.runs, runs...)
		if err != nil || (p.code != 0 && p.code != 2) {
			add(invRetry, "%s: plan did not work (exit %d): %v", d.name, p.code, err)
			continue
		}
		if d == s.dirs[0] {
			s.prior = p.prior
		}
		if slices.Contains(out.converge, d) && p.code != 0 && !supersededByTheOther(p, out.contested) {
			add(invConverge, "%s: the apply succeeded, yet the plan changes %v", d.name, p.changes)
		}
		for _, key := range slices.Sorted(maps.Keys(p.prior)) {
			i := p.prior[key]
			// A failure's stage is judged when the step made it, and not when another directory applied
			// the template at once: its replacement deletes the template this one builds, and its build
			// start cancels this one's build.
			judgeStage := key != out.concurrent && (d != s.dirs[0] || !sameOutcome(earlier[key], i))
			if problem := pullProblem(i, judgeStage); problem != "" {
				add(invPull, "%s: %s: %s", d.name, key, problem)
			}
			switch i.status() {
			case "FAILED", statusBuilding, statusSuperseded, statusInactive:
				if p.changes[key] == nil {
					add(invRetry, "%s: %s is recorded %s (stage %v) but the plan changes nothing", d.name, key, i.status(), i.Attributes["stage"])
				}
			case "SUCCESS", "SKIPPED":
				if adoptedUnverified(i) {
					continue // README: an import adopts what the backend cannot compare, saying so
				}
				for _, problem := range s.servedProblems(i) {
					add(invServed, "%s: %s recorded %s (%v): %s", d.name, key, i.status(), i.Attributes["detail"], problem)
				}
				s.notePromoted(i)
				for _, problem := range s.tagProblems(i) {
					add(invCandidate, "%s: %s: %s", d.name, key, problem)
				}
				if d == s.dirs[0] && slices.Contains(out.converge, d) && key != out.concurrent {
					for _, problem := range s.supersededLeft(i) {
						add(invSuperseded, "%s: %s: %s", d.name, key, problem)
					}
				}
				if missing := s.tagsToGiveBack(d, key, i); len(missing) > 0 && p.changes[key] == nil {
					add(invTagDrift, "%s: %s names none of the configured tags %v, yet the plan changes nothing", d.name, key, missing)
				}
			}
		}
	}
	if r := out.refreshOnly; r != nil && r.code != 2 {
		add(invTagDrift, "%s: after a tag its state recorded was moved off its build, `plan -refresh-only -detailed-exitcode` exited %d, want 2 (drift):\n%s",
			r.dir, r.code, tail(r.output, 15))
	}
	for _, r := range out.runs {
		if r.code == 11 || crashed.MatchString(r.output) {
			add(invCrash, "%s exited %d:\n%s", strings.Join(r.args, " "), r.code, tail(r.output, 15))
		}
	}
	vs = append(vs, s.checkProblems(out)...)
	for _, problem := range s.liveCandidates() {
		add(invCandidate, "%s", problem)
	}
	s.leftOut(out.runs)
	vs = append(vs, s.orphans(recorded)...)
	for id, builds := range s.newBuilds(builtBefore) {
		if !out.mayBuild[id] {
			add(invNoRebuild, "%s was built (%v) although its state recorded these inputs as built, or a build from them already served it", id, builds)
		}
	}
	if sandboxes, err := s.emu.sandboxes(); err != nil {
		add(invStepFinish, "listing sandboxes: %v", err)
	} else {
		for _, sb := range sandboxes {
			if sb.running() {
				add(invSandboxes, "sandbox %s is %s with no CLI running", sb.ID, sb.State)
			}
		}
	}
	return vs
}

// adoptedUnverified tells whether i is an imported OpenSandbox snapshot, which records no inputs:
// the import adopts it as the configuration describes it, with a warning (the README's exception).
func adoptedUnverified(i instance) bool {
	detail, _ := i.Attributes["detail"].(string)
	return i.template().Backend == backendOpenSandbox && strings.HasPrefix(detail, "imported")
}

// pullProblem tells what is untrue in a record of a template from typoImage: only a failure can be
// recorded, and (when judgeStage) at IMAGE_PULL, unless the wait for it ended first (TIMEOUT,
// CANCELLED) or the harness failed the build before its pull (failNext on E2B).
func pullProblem(i instance, judgeStage bool) string {
	if i.template().Image != typoImage {
		return ""
	}
	stage, _ := i.Attributes["stage"].(string)
	detail, _ := i.Attributes["detail"].(string)
	switch status := i.status(); {
	case status == "SUCCESS" || status == "SKIPPED":
		return fmt.Sprintf("recorded %s (%s) from %s, which no registry has", status, detail, typoImage)
	case status != "FAILED", !judgeStage, stage == "IMAGE_PULL", stage == "TIMEOUT", stage == "CANCELLED", strings.Contains(detail, injectedFailure):
		return ""
	default:
		return fmt.Sprintf("recorded FAILED at stage %s (%s), want IMAGE_PULL", stage, detail)
	}
}

// sameOutcome tells whether two records say the same about their last build.
func sameOutcome(a, b instance) bool {
	for _, attr := range []string{"status", "stage", "detail", "build_id"} {
		if fmt.Sprint(a.Attributes[attr]) != fmt.Sprint(b.Attributes[attr]) {
			return false
		}
	}
	return true
}

// statusBuilding is what state holds while a create waits for its build: a retry is due too.
const statusBuilding = "BUILDING"

// statusSuperseded is what a refresh records when another configuration's build replaced the
// template's: a rebuild is due.
const statusSuperseded = "SUPERSEDED"

// statusInactive is what a refresh records when Daytona deactivated the snapshot for disuse: the
// plan activates it.
const statusInactive = "INACTIVE"

// supersededByTheOther tells whether the plan changes only the contested template, which a refresh
// recorded SUPERSEDED: the other directory's apply of other inputs came after this one's.
func supersededByTheOther(p plan, contested string) bool {
	return contested != "" && len(p.changes) == 1 && p.changes[contested] != nil && p.prior[contested].status() == statusSuperseded
}

// orphans lists the templates that exist remotely while no state records them and no documented
// exception lets them.
func (s *sequence) orphans(recorded map[string]bool) []violation {
	remote, err := s.emu.remoteTemplates()
	if err != nil {
		return []violation{{invStepFinish, "listing templates: " + err.Error()}}
	}
	var vs []violation
	for _, backend := range slices.Sorted(maps.Keys(remote)) {
		for _, id := range slices.Compact(slices.Sorted(slices.Values(remote[backend]))) {
			switch {
			case recorded[id]:
				delete(s.allowed, id) // recorded again: a later orphan is a new one
			case s.allowed[id] == "":
				vs = append(vs, violation{invOrphan, fmt.Sprintf("%s template %s exists, and no state records it", backend, id)})
			}
		}
	}
	return vs
}

// servedProblems compares a SUCCESS or SKIPPED record with what its template serves.
func (s *sequence) servedProblems(i instance) []string {
	rec := i.template()
	var problems []string
	var buildID string
	switch rec.Backend {
	case backendE2B:
		name := rec.TemplateID + ":default"
		if rec.Candidate { // its consumers start it by build_ref
			name = rec.TemplateID + ":" + fmt.Sprint(i.Attributes["build_id"])
		}
		served, err := s.emu.servedE2B(name)
		if err != nil || served == nil {
			return []string{fmt.Sprintf("nothing serves %s (%v)", name, err)}
		}
		buildID, problems = served.BuildID, e2bDifferences(rec, served)
	case backendOpenSandbox:
		served, err := s.emu.servedOSB(rec.TemplateID)
		if err != nil || served == nil {
			return []string{fmt.Sprintf("no Ready snapshot named %s (%v)", rec.TemplateID, err)}
		}
		buildID, problems = served.ID, osbDifferences(rec, served)
		if got := fmt.Sprint(i.Attributes["sandbox_entrypoint"]); got != fmt.Sprint(sandboxEntrypoint(rec.StartCmd)) {
			problems = append(problems, fmt.Sprintf("sandbox_entrypoint is %s, want %q", got, sandboxEntrypoint(rec.StartCmd)))
		}
	case backendDaytona:
		var ok bool
		if buildID, problems, ok = s.daytonaDifferences(i); !ok {
			return problems
		}
	default:
		return nil
	}
	if want, m := rec.inputs().key(), s.madeFrom[buildID]; m.inputs != want {
		problems = append(problems, fmt.Sprintf("the served build %s was started while applying %s\n   not the recorded %s", buildID, orNone(m.inputs), want))
	}
	return problems
}

// notePromoted remembers the build of an E2B record that is not a candidate: an apply made it
// live, so liveCandidates lets the plain name start it.
func (s *sequence) notePromoted(i instance) {
	if buildID, _ := i.Attributes["build_id"].(string); buildID != "" && i.template().Backend == backendE2B && !i.template().Candidate {
		s.promoted[buildID] = true
	}
}

// tagProblems tells where a tag an E2B record names does not start the recorded build.
func (s *sequence) tagProblems(i instance) []string {
	rec := i.template()
	buildID, _ := i.Attributes["build_id"].(string)
	if rec.Backend != backendE2B || buildID == "" {
		return nil
	}
	var problems []string
	for _, tag := range rec.Tags {
		served, err := s.emu.servedE2B(rec.TemplateID + ":" + tag)
		switch {
		case err != nil:
			problems = append(problems, fmt.Sprintf("%s:%s: %v", rec.TemplateID, tag, err))
		case served == nil || served.BuildID != buildID:
			problems = append(problems, fmt.Sprintf("%s:%s starts %v, not the recorded build %s", rec.TemplateID, tag, servedID(served), buildID))
		}
	}
	return problems
}

// tagsToGiveBack are the tags the pipeline's configuration gives the template of key that its
// refreshed record i does not name: each is one a refresh found moved (or one still to add), which
// the plan must give to the recorded build.
func (s *sequence) tagsToGiveBack(d *workdir, key string, i instance) []string {
	t, configured := s.cfg[key]
	if d != s.dirs[0] || !configured || t.TemplateID != i.template().TemplateID {
		return nil
	}
	return slices.DeleteFunc(slices.Clone(t.Tags), func(tag string) bool { return slices.Contains(i.template().Tags, tag) })
}

// liveCandidates lists the E2B templates whose plain name starts a build made while the
// configuration asked for candidates, which no record has made live since.
func (s *sequence) liveCandidates() []string {
	var problems []string
	for _, k := range s.cfg.keys() {
		t := s.cfg[k]
		if t.Backend != backendE2B {
			continue
		}
		live := s.servedBuild(t)
		if m := s.madeFrom[live]; live != "" && m.candidate && !s.promoted[live] {
			problems = append(problems, fmt.Sprintf("%s:default starts %s, a candidate build no apply has made live", t.TemplateID, live))
		}
	}
	return problems
}

func servedID(served *e2bServed) string {
	if served == nil {
		return "nothing"
	}
	return served.BuildID
}

func orNone(inputs string) string {
	if inputs == "" {
		return "(no configuration of this template)"
	}
	return inputs
}

// e2bDifferences compares the recorded inputs with the body the served build was started with.
func e2bDifferences(rec template, served *e2bServed) []string {
	if served.Start == nil {
		return []string{"the served build " + served.BuildID + " was never started by a client"}
	}
	start := served.Start
	var runs []string
	for _, st := range start.Steps {
		if st.Type == "RUN" && len(st.Args) > 0 {
			runs = append(runs, st.Args[0])
		}
	}
	wantStart, wantReady := e2bDefaultStartCmd, ""
	if rec.StartCmd != nil {
		wantStart = *rec.StartCmd
	}
	if rec.ReadyCmd != nil {
		wantReady = *rec.ReadyCmd
	}
	var d differences
	d.compare("image", deref(start.FromImage), rec.Image)
	d.compare("packages", pipPackages(runs), orEmpty(rec.Packages))
	d.compare("start command", deref(start.StartCmd), wantStart)
	if rec.StartCmd == nil && rec.ReadyCmd == nil {
		if !strings.Contains(deref(start.ReadyCmd), e2bDefaultReadyPort) {
			d = append(d, fmt.Sprintf("ready command %q is not the code interpreter's health check on %s", deref(start.ReadyCmd), e2bDefaultReadyPort))
		}
	} else {
		d.compare("ready command", deref(start.ReadyCmd), wantReady)
	}
	d.compare("cpu_count", served.CPUCount, rec.inputs().CPUCount)
	d.compare("memory_mb", served.MemoryMB, rec.inputs().MemoryMB)
	var made []string
	for _, st := range start.Steps {
		switch {
		case st.Type == "ENV":
			var pairs []string
			for i := 0; i+1 < len(st.Args); i += 2 {
				pairs = append(pairs, st.Args[i]+"="+st.Args[i+1])
			}
			made = append(made, "env "+strings.Join(pairs, " "))
		case st.Type == "USER" && len(st.Args) > 0:
			made = append(made, "user "+st.Args[0])
		case st.Type == "RUN" && len(st.Args) > 0:
			made = append(made, commandStep(st.Args[0]))
		}
	}
	d.steps(rec.Steps, made, true)
	return d
}

// osbDifferences compares the recorded inputs with what made the served snapshot.
func osbDifferences(rec template, served *osbServed) []string {
	var commands []string
	started := ""
	for _, c := range served.Commands {
		if c.Background {
			started = c.Command
			continue
		}
		commands = append(commands, c.Command)
	}
	var d differences
	d.compare("image", served.Image, rec.Image)
	d.compare("packages", pipPackages(commands), orEmpty(rec.Packages))
	var made []string
	for _, c := range commands {
		made = append(made, commandStep(c))
	}
	d.steps(rec.Steps, made, false) // env and user are no commands there: each later command gets them
	if served.Sandbox == nil {
		return append(d, "the served snapshot "+served.ID+" was taken from no sandbox a client created")
	}
	// The builder sandbox runs the neutral entrypoint and starts sandbox_entrypoint's command after
	// the steps, as a shell command.
	d.compare("builder sandbox entrypoint", served.Sandbox.Entrypoint, sandboxEntrypoint(new("")))
	want := ""
	if rec.StartCmd == nil || *rec.StartCmd != "" {
		var quoted []string
		for _, a := range sandboxEntrypoint(rec.StartCmd) {
			quoted = append(quoted, builders.ShellQuoteIfNeeded(a))
		}
		want = strings.Join(quoted, " ")
	}
	d.compare("start command", started, want)
	return d
}

type differences []string

// steps checks that the recorded steps are, in order, among the steps that made the served build
// (made, as commandStep writes them; the builder's own steps may come between). withSteps: env and
// user are steps of their own (E2B's ENV and USER), not settings of later commands.
func (d *differences) steps(recorded []buildStep, made []string, withSteps bool) {
	var want []string
	for _, st := range recorded {
		switch {
		case st.Run != nil:
			want = append(want, "run "+st.Run.Command)
		case st.Apt != nil:
			want = append(want, "apt "+strings.Join(st.Apt.Packages, " "))
		case st.User != nil && withSteps:
			want = append(want, "user "+*st.User)
		case st.Env != nil && withSteps:
			var pairs []string
			for _, k := range slices.Sorted(maps.Keys(st.Env)) {
				pairs = append(pairs, k+"="+st.Env[k])
			}
			want = append(want, "env "+strings.Join(pairs, " "))
		}
	}
	next := 0
	for _, m := range made {
		if next < len(want) && m == want[next] {
			next++
		}
	}
	if next < len(want) {
		*d = append(*d, fmt.Sprintf("steps: the served build was made by %q, without the recorded step %q", made, want[next]))
	}
}

// commandStep names a build command as the recorded step it runs: apt-get's packages, else the command.
func commandStep(command string) string {
	if _, packages, ok := strings.Cut(command, "apt-get install -y "); ok {
		return "apt " + strings.TrimSpace(strings.TrimPrefix(packages, "--no-install-recommends "))
	}
	return "run " + command
}

func (d *differences) compare(what string, got, want any) {
	if fmt.Sprintf("%#v", got) != fmt.Sprintf("%#v", want) {
		*d = append(*d, fmt.Sprintf("%s: served %#v, recorded %#v", what, got, want))
	}
}

// pipPackages are the requirements the pip install commands among commands install, in order.
func pipPackages(commands []string) []string {
	out := []string{}
	for _, c := range commands {
		_, args, ok := strings.Cut(c, "pip install")
		if !ok {
			continue
		}
		for _, word := range shellWords(args) {
			if !strings.HasPrefix(word, "-") {
				out = append(out, word)
			}
		}
	}
	return out
}

// shellWords splits a command line as a POSIX shell does for plain words and quotes.
func shellWords(line string) []string {
	var words []string
	var word strings.Builder
	inWord, quote, escaped := false, rune(0), false
	for _, r := range line {
		switch {
		case escaped:
			word.WriteRune(r)
			escaped = false
		case quote != 0 && r == quote:
			quote = 0
		case quote != 0:
			word.WriteRune(r)
		case r == '\'' || r == '"':
			quote, inWord = r, true
		case r == '\\':
			escaped, inWord = true, true
		case r == ' ' || r == '\t':
			if inWord {
				words, inWord = append(words, word.String()), false
				word.Reset()
			}
		default:
			word.WriteRune(r)
			inWord = true
		}
	}
	if inWord {
		words = append(words, word.String())
	}
	return words
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

func orEmpty(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

func tail(s string, lines int) string {
	all := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(all) > lines {
		all = all[len(all)-lines:]
	}
	return "    | " + strings.Join(all, "\n    | ")
}
