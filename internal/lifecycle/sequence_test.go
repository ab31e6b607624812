package lifecycle

import (
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"
)

// tools is what every sequence runs: the CLI, the provider built once, the emulator binary; and
// the module's root, where the replay command runs.
type tools struct {
	cli, providerDir, emulatorBin, root string
	// leavesFailedCreatesOut: the CLI is Terraform 1.16 or later, which crashes when it saves a
	// failed create, so the provider leaves one out of state, saying so in a warning (README).
	leavesFailedCreatesOut bool
}

// sequence runs steps against its own emulator with two working directories: the pipeline's
// (dirs[0]) and a second one that applies the same template now and then.
type sequence struct {
	tools
	emu  *emulator
	dirs [2]*workdir
	cfg  config // dirs[0]'s configuration
	// madeFrom says, for every build (E2B) or snapshot (OpenSandbox) started so far, which template
	// and inputs the step that started it applied.
	madeFrom map[string]madeFrom
	// allowed are the templates that may exist with no state recording them, and why (the README's
	// exceptions: keep_remotely, an interrupted create's finished build).
	allowed map[string]string
	// prior is dirs[0]'s state as the last plan refreshed it.
	prior map[string]instance
	// promoted are the E2B builds a record not a candidate has named: live by an apply's will.
	promoted map[string]bool
	// passed are the E2B builds a state recorded a passing check of (only a pass is recorded).
	passed map[string]bool
	// killed are check sandboxes a kill -9 left running: the backend ends them at their timeout.
	killed map[string]bool
}

type madeFrom struct {
	templateID string
	inputs     string // inputs.key(), or "" when the configuration had no such template
	candidate  bool   // the configuration asked for a candidate (E2B)
}

// outcome is what a step did.
type outcome struct {
	runs []run
	// converge lists the directories whose apply succeeded: their next plan must be empty.
	converge []*workdir
	// checked are the directories whose state the step changed, besides dirs[0].
	checked []*workdir
	// mayBuild lists the templates the step may start a build of.
	mayBuild map[string]bool
	// contested is the key two directories applied with other inputs at once (on OpenSandbox, with
	// any inputs: its snapshots record none): whichever applied last, the other's refresh finds it
	// SUPERSEDED and plans its rebuild (README).
	contested string
	// concurrent is the key two directories applied at once, with any inputs: one's replacement may
	// delete the template the other builds, one's build start cancels the other's build.
	concurrent string
	// refreshOnly is the refresh-only plan a step that moved a tag off its record's build ran:
	// before any apply points it back, the refresh must show the drift.
	refreshOnly *run
	// killedCLI: the step killed a CLI (kill -9), whose check sandboxes the backend ends at their timeout.
	killedCLI bool
	note      string
}

func newSequence(tl tools, root string) (*sequence, error) {
	emu, err := startEmulator(tl.emulatorBin)
	if err != nil {
		return nil, err
	}
	s := &sequence{tools: tl, emu: emu, cfg: config{}, madeFrom: map[string]madeFrom{}, allowed: map[string]string{}, promoted: map[string]bool{},
		prior: map[string]instance{}, passed: map[string]bool{}, killed: map[string]bool{}}
	for i, name := range []string{"pipeline", "second"} {
		if s.dirs[i], err = newWorkdir(name, tl.cli, filepath.Join(root, name), tl.providerDir, emu); err != nil {
			emu.stop()
			return nil, err
		}
	}
	return s, nil
}

func (s *sequence) close() { s.emu.stop() }

// perform runs one step. An error is the harness's (or the emulator's) own failure, not a finding.
func (s *sequence) perform(st step) (outcome, error) {
	before, err := s.readStates()
	if err != nil {
		return outcome{}, fmt.Errorf("nothing can be done from an unreadable state: %w", err)
	}
	applied := s.cfg.clone()
	if err := applied.apply(st.Edits); err != nil {
		return outcome{}, err
	}
	out := outcome{mayBuild: map[string]bool{}}
	switch st.Verb {
	case verbApply, verbInterrupt, verbCheckSigint, verbKill, verbImport, verbSecondDir:
		s.forgetRemoved(before[0], applied)
		s.mayBuild(out.mayBuild, applied, before[0], false)
	case verbDestroy:
		s.forgetRemoved(before[0], config{})
	}
	s.cfg = applied
	if err := s.dirs[0].write(applied); err != nil {
		return out, err
	}
	t := applied[st.Arg]
	switch st.Verb {
	case verbApply:
		_, err = s.apply(&out, s.dirs[0])
	case verbInterrupt, verbKill:
		err = s.interrupt(&out, st)
	case verbCheckSigint:
		err = s.interruptCheck(&out, st)
	case verbDestroy:
		var r run
		r, err = s.dirs[0].run("destroy", "-auto-approve", "-input=false", "-no-color")
		out.runs = append(out.runs, r)
	case verbFailNext:
		err = s.failNext(t)
	case verbHang, verbRelease:
		err = s.emu.e2bControl(map[string]string{verbHang: "hang-builds", verbRelease: "release-builds"}[st.Verb],
			map[string]string{"template": t.TemplateID})
	case verbBuildDuration:
		err = s.buildDuration(st.Arg)
	case verbThrottle:
		err = s.emu.osbFault(osbSnapshotPrefix, 429, st.Arg)
	case verbDeleteRemote:
		err = s.emu.deleteRemote(t.Backend, t.TemplateID)
	case verbExpire:
		var n int
		if n, err = s.emu.expireDaytona(t.TemplateID); err == nil && n == 0 {
			out.note = "no active snapshot to expire"
		}
	case verbImport:
		err = s.importTemplate(&out, st.Arg, t, before[0])
	case verbSecondDir:
		err = s.secondDir(&out, st.Arg, t, before[0])
	case verbMoveTag, verbRemoveTag:
		err = s.handTag(&out, st, before[0])
	default:
		err = fmt.Errorf("unknown step %q", st.Verb)
	}
	if err != nil {
		return out, err
	}
	return out, s.attribute()
}

func (s *sequence) readStates() ([2]map[string]instance, error) {
	var states [2]map[string]instance
	for i, d := range s.dirs {
		var err error
		if states[i], err = d.readState(); err != nil {
			return states, err
		}
	}
	return states, nil
}

// apply applies in d; a success must leave nothing to plan.
func (s *sequence) apply(out *outcome, d *workdir) (run, error) {
	r, err := d.apply()
	out.runs = append(out.runs, r)
	if err == nil && r.code == 0 {
		out.converge = append(out.converge, d)
	}
	return r, err
}

// interrupt starts an apply and signals it a while after its first build starts, if a build
// still runs then: the CLIs write state in place (truncate, then write), so a signal that lands
// while they save it is their hazard, which no provider can avoid. After SIGKILL the user
// recovers: apply again and, when the state is still locked, force-unlock it by the lock's id and
// apply once more. After SIGINT the CLI must stop by itself, and the next step goes on from there.
func (s *sequence) interrupt(out *outcome, st step) error {
	before, _, err := s.emu.startedBuilds()
	if err != nil {
		return err
	}
	sig := map[string]syscall.Signal{verbInterrupt: syscall.SIGINT, verbKill: syscall.SIGKILL}[st.Verb]
	p, signalled, err := s.applySignalled(st.Arg, sig, func() (bool, error) {
		started, running, err := s.emu.startedBuilds()
		return len(started) > len(before) && running, err
	}, func() bool {
		_, running, err := s.emu.startedBuilds()
		return err == nil && running
	})
	if err != nil {
		return err
	}
	out.killedCLI = signalled && sig == syscall.SIGKILL
	if !signalled {
		out.note = "no build was running to interrupt"
	}
	r, err := p.wait()
	out.runs = append(out.runs, r)
	if err != nil || st.Verb == verbInterrupt {
		if err == nil && r.code == 0 {
			out.converge = append(out.converge, s.dirs[0])
		}
		return err
	}
	s.allowLostState(out)
	if r, err := s.apply(out, s.dirs[0]); err != nil || !strings.Contains(r.output, "Error acquiring the state lock") {
		return err
	}
	unlock, err := s.dirs[0].forceUnlock()
	if unlock != nil {
		out.runs = append(out.runs, *unlock)
	}
	if err != nil {
		return err
	}
	_, err = s.apply(out, s.dirs[0])
	return err
}

// applySignalled starts an apply in the first working directory and, once ready says the moment has
// come, waits delay and sends it sig, if still (nil: always) says it is still worth sending. It
// returns the running apply and whether it was signalled.
func (s *sequence) applySignalled(delay string, sig syscall.Signal, ready func() (bool, error), still func() bool) (*process, bool, error) {
	wait, err := time.ParseDuration(delay)
	if err != nil {
		return nil, false, err
	}
	p, err := s.dirs[0].start("apply", "-auto-approve", "-input=false", "-no-color")
	if err != nil {
		return nil, false, err
	}
	for {
		select {
		case <-p.done:
			return p, false, nil
		case <-time.After(20 * time.Millisecond):
			now, err := ready()
			if err != nil {
				return p, false, err
			}
			if now {
				time.Sleep(wait)
				if still != nil && !still() {
					return p, false, nil
				}
				p.signal(sig)
				return p, true, nil
			}
		}
	}
}

// allowLostState widens what a kill -9 step may build when the kill landed while the CLI saved the
// state and left the file truncated (the CLIs' hazard, see interrupt): the re-run apply starts
// from no state and creates every template again, so, as any create may, it builds each one not
// already serving a build of its inputs (on OpenSandbox, whose snapshots record none, every one).
func (s *sequence) allowLostState(out *outcome) {
	if state, err := s.dirs[0].readState(); err == nil && state != nil {
		return
	}
	s.mayBuild(out.mayBuild, s.cfg, nil, true)
	out.note = strings.TrimPrefix(out.note+"; the kill left no readable state: the next apply started from none", "; ")
}

// osbSnapshotPrefix is where a builder sandbox's snapshot is requested (sandbox ids are sbx-N):
// POST /sandboxes/{id}/snapshots, and not the sandbox create.
const osbSnapshotPrefix = "/sandboxes/sbx-"

// injectedFailure is the reason of an E2B build failNext fails, before it pulls anything.
const injectedFailure = "failed to run command 'pip install': exit status 1"

// failNext makes the next build of t fail: on E2B as a failed step does; on OpenSandbox the
// package install (or, with no packages, the snapshot) answers an error.
func (s *sequence) failNext(t template) error {
	if t.Backend == backendDaytona {
		return errors.New("fail-next: the Daytona emulator fails no build on demand")
	}
	if t.Backend == backendE2B {
		return s.emu.e2bControl("fail-build", map[string]string{"template": t.TemplateID, "reason": injectedFailure, "step": "1"})
	}
	if len(t.Packages) > 0 {
		return s.emu.osbFault("/execd/", 500, "")
	}
	return s.emu.osbFault(osbSnapshotPrefix, 409, "")
}

// importTemplate forgets the template and imports it, as a user who lost it from state would, then applies.
func (s *sequence) importTemplate(out *outcome, key string, t template, state map[string]instance) error {
	address := fmt.Sprintf("sandbox_template.t[%q]", key)
	if _, ok := state[key]; ok {
		r, err := s.dirs[0].run("state", "rm", address)
		out.runs = append(out.runs, r)
		if err != nil {
			return err
		}
	}
	id := t.TemplateID
	if t.Backend != backendE2B {
		id = t.Backend + "/" + id
	}
	r, err := s.dirs[0].run("import", "-input=false", "-no-color", address, id)
	out.runs = append(out.runs, r)
	if err != nil {
		return err
	}
	s.mayBuild(out.mayBuild, config{key: t}, nil, true)
	_, err = s.apply(out, s.dirs[0])
	return err
}

// secondDir applies the template from a second directory (a second pipeline with the same
// template_id) while the first applies its edits, then drops it from the second state, so the
// first stays its only owner. It needs the first to record the template.
func (s *sequence) secondDir(out *outcome, key string, t template, state map[string]instance) error {
	if _, ok := state[key]; !ok {
		out.note = "skipped: the pipeline's state does not record " + key
		return nil
	}
	second := s.dirs[1]
	if err := second.write(config{key: t}); err != nil {
		return err
	}
	s.mayBuild(out.mayBuild, config{key: t}, nil, true)
	p, err := s.dirs[0].start("apply", "-auto-approve", "-input=false", "-no-color")
	if err != nil {
		return err
	}
	out.concurrent = key
	if t.inputs().key() != s.cfg[key].inputs().key() || t.Backend == backendOpenSandbox {
		out.contested = key
	}
	_, err = s.apply(out, second)
	r, waitErr := p.wait()
	out.runs = append(out.runs, r)
	if r.code == 0 {
		out.converge = append(out.converge, s.dirs[0])
	}
	out.checked = append(out.checked, second)
	return errors.Join(err, waitErr)
}

// handTag moves a tag of an E2B template by hand to another ready build (the newest; when there is
// none, it removes the tag), or removes it, as a user with the API key would. When the pipeline's state recorded the tag on the build it
// started, the record is now untrue: a refresh-only plan must show it (exit 2), and the check's plan
// must point the tag back.
func (s *sequence) handTag(out *outcome, st step, state map[string]instance) error {
	key, tag, _ := strings.Cut(st.Arg, ":")
	id := s.cfg[key].TemplateID
	served, err := s.emu.servedE2B(id + ":" + tag)
	if err != nil {
		return err
	}
	was := ""
	if served != nil {
		was = served.BuildID
	}
	var others []string
	if st.Verb == verbMoveTag {
		ready, err := s.emu.readyBuilds(id)
		if err != nil {
			return err
		}
		others = slices.DeleteFunc(ready, func(b string) bool { return b == was })
	}
	if len(others) > 0 {
		err = s.emu.assignTag(id, others[len(others)-1], tag)
	} else {
		if st.Verb == verbMoveTag {
			out.note = "no other ready build to move " + tag + " to: removed it"
		}
		err = s.emu.removeTag(id, tag)
	}
	i, recorded := state[key]
	buildID, _ := i.Attributes["build_id"].(string)
	if err != nil || !recorded || i.Tainted || (i.status() != "SUCCESS" && i.status() != "SKIPPED") || buildID == "" || buildID != was ||
		!slices.Contains(i.template().Tags, tag) {
		return err // the record did not claim the tag's build: nothing it says became untrue
	}
	r, err := s.dirs[0].run("plan", "-refresh-only", "-detailed-exitcode", "-input=false", "-no-color")
	out.runs = append(out.runs, r)
	out.refreshOnly = &r
	return err
}

// forgetSecond drops the template from the second directory's state once its checks ran. When the
// pipeline no longer records it either, the harness is what left it behind: it is allowed.
func (s *sequence) forgetSecond(key string) (run, error) {
	r, err := s.dirs[1].run("state", "rm", fmt.Sprintf("sandbox_template.t[%q]", key))
	if err != nil {
		return r, err
	}
	state, err := s.dirs[0].readState()
	if _, ok := state[key]; err == nil && !ok {
		s.allowed[s.cfg[key].TemplateID] = "applied from the second directory, whose state the test dropped"
	}
	return r, nil
}

// leftOut notes the templates an apply's warning says it left out of state after their create
// failed (Terraform 1.16 and later only): the next apply adopts or builds them.
func (s *sequence) leftOut(runs []run) {
	if !s.leavesFailedCreatesOut {
		return
	}
	for _, r := range runs {
		for _, t := range s.cfg {
			if r.args[0] == "apply" && strings.Contains(r.output, "out of state") && strings.Contains(r.output, `"`+t.TemplateID+`"`) {
				s.allowed[t.TemplateID] = "a failed create left out of state, with a warning (Terraform 1.16)"
			}
		}
	}
}

// forgetRemoved notes the templates Terraform may forget without deleting: instances about to be
// destroyed with keep_remotely, and instances tainted by an interrupted create, destroyed or
// replaced (README: the delete keeps a template whose build finished after the interruption, and
// until the replacement's create records it again, which an interrupt can delay, no state does).
func (s *sequence) forgetRemoved(state map[string]instance, next config) {
	for key, i := range state {
		_, stays := next[key]
		t := i.template()
		switch stage, _ := i.Attributes["stage"].(string); {
		case t.KeepRemotely && !stays:
			s.allowed[t.TemplateID] = "destroyed with keep_remotely = true"
		case i.Tainted && (stage == "TIMEOUT" || stage == "CANCELLED"):
			s.allowed[t.TemplateID] = "an interrupted create (stage " + stage + "), destroyed or replaced"
		}
	}
}

// mayBuild notes which templates of cfg an apply may build. It must not build one whose state
// records these inputs as built (only a setting changed, or nothing did), nor an E2B template
// served by a build from exactly its configured inputs (E2B records them with the build) unless
// force_rebuild asks for it. An OpenSandbox snapshot records no inputs: building again when the
// record does not vouch for it is allowed.
func (s *sequence) mayBuild(may map[string]bool, cfg config, state map[string]instance, creating bool) {
	for key, t := range cfg {
		want := t.inputs().key()
		recorded, inState := s.prior[key]
		if state != nil {
			_, inRaw := state[key]
			inState = inState && inRaw && !state[key].Tainted
		}
		create := creating || !inState
		status := recorded.status()
		if !create && (status == "SUCCESS" || status == "SKIPPED") && recorded.template().inputs().key() == want {
			continue // nothing to build
		}
		served := s.servedBuild(t)
		if t.Backend == backendE2B && served != "" && s.madeFrom[served].inputs == want && !t.ForceRebuild {
			continue // already served from these inputs, which E2B records: adopt
		}
		if t.Backend == backendDaytona && s.daytonaHolds(t.TemplateID, want, state[key].Tainted) && !t.ForceRebuild {
			continue // a snapshot named by these inputs exists: adopted, activated or waited for, never built again
		}
		may[t.TemplateID] = true
	}
}

// daytonaHolds tells whether a Daytona snapshot of template id made from inputs want exists,
// active, inactive or (unless tainted) still building: its name, which the fingerprint of the
// inputs makes, is what the provider adopts. A tainted record (an interrupted create) is replaced:
// its destroy removes a snapshot still building, and the create that follows builds again.
func (s *sequence) daytonaHolds(id, want string, tainted bool) bool {
	snaps, err := s.emu.daytonaSnapshotsOf(id)
	return err == nil && slices.ContainsFunc(snaps, func(sn daytonaSnapshot) bool {
		return sn.usable() && (!tainted || !sn.building()) && s.madeFrom[sn.ID].inputs == want
	})
}

// buildDuration makes builds take about d from now on: E2B's directly; Daytona's by the reads a
// snapshot stays in each state, a read a second.
func (s *sequence) buildDuration(d string) error {
	wait, err := time.ParseDuration(d)
	if err != nil {
		return err
	}
	if err := s.emu.e2bControl("build-duration", map[string]string{"duration": d}); err != nil {
		return err
	}
	return s.emu.daytonaPollsPerState(1 + int(wait/time.Second))
}

// servedBuild is the id of the build (E2B) or snapshot (OpenSandbox) that t's template serves, or "".
func (s *sequence) servedBuild(t template) string {
	if t.Backend == backendE2B {
		if served, err := s.emu.servedE2B(t.TemplateID); err == nil && served != nil {
			return served.BuildID
		}
		return ""
	}
	if served, err := s.emu.servedOSB(t.TemplateID); err == nil && served != nil {
		return served.ID
	}
	return ""
}

// attribute records, for each build started since the last step, the inputs this step applied
// to its template.
func (s *sequence) attribute() error {
	builds, _, err := s.emu.startedBuilds()
	if err != nil {
		return err
	}
	for id, templateID := range builds {
		if _, seen := s.madeFrom[id]; seen || templateID == "" {
			continue
		}
		m := madeFrom{templateID: templateID}
		if _, t, ok := s.cfg.byTemplateID(templateID); ok {
			m.inputs, m.candidate = t.inputs().key(), t.Candidate
		}
		s.madeFrom[id] = m
	}
	return nil
}

// newBuilds are the builds started during the last step, by template id.
func (s *sequence) newBuilds(before map[string]madeFrom) map[string][]string {
	out := map[string][]string{}
	for id, m := range s.madeFrom {
		if _, old := before[id]; !old {
			out[m.templateID] = append(out[m.templateID], id)
		}
	}
	for _, ids := range out {
		slices.Sort(ids)
	}
	return out
}
