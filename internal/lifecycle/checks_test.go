package lifecycle

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"syscall"
)

// checkProblems judges the checks (sandbox_template_check) and their gate tags after a step:
//   - every check a state records passed, and none imports neverInstalled (which no build has) or
//     hangs: a failed or timed-out check is never recorded;
//   - the gate tag of each E2B template points, when it exists, at a build a recorded check passed
//     (s.passed gathers them over the sequence): never at one whose check failed or never ran;
//   - no check's sandbox runs once the step's CLIs are done, but those a kill -9 left, which E2B
//     ends at their timeout.
func (s *sequence) checkProblems(out *outcome) []violation {
	var vs []violation
	add := func(inv, format string, args ...any) { vs = append(vs, violation{inv, fmt.Sprintf(format, args...)}) }
	for _, d := range s.dirs {
		checks, err := d.readStateOf("sandbox_template_check")
		if err != nil {
			add(invStateFile, "%s: %v", d.name, err)
			continue
		}
		for _, key := range slices.Sorted(maps.Keys(checks)) {
			attrs := checks[key].Attributes
			build, _ := attrs["build_id"].(string)
			if problem := recordedCheckProblem(attrs); problem != "" {
				add(invCheckGate, "%s: check %s of build %s: %s", d.name, key, build, problem)
				continue
			}
			s.passed[build] = true
		}
	}
	for _, key := range s.cfg.keys() {
		t := s.cfg[key]
		if t.Check == "" || t.Backend != backendE2B {
			continue
		}
		served, err := s.emu.servedE2B(t.TemplateID + ":" + gateTag)
		if err != nil {
			add(invStepFinish, "%s:%s: %v", t.TemplateID, gateTag, err)
		} else if served != nil && !s.passed[served.BuildID] {
			add(invCheckGate, "%s:%s starts build %s, which no recorded check passed", t.TemplateID, gateTag, served.BuildID)
		}
	}
	running, err := s.emu.checkSandboxes()
	if err != nil {
		add(invStepFinish, "listing sandboxes: %v", err)
	}
	for _, sb := range running {
		if out.killedCLI {
			s.killed[sb.SandboxID] = true
		}
		if !s.killed[sb.SandboxID] {
			add(invCheckSbx, "check sandbox %s (build %s) runs with no CLI running", sb.SandboxID, sb.BuildID)
		}
	}
	return vs
}

// recordedCheckProblem says what is wrong with a recorded check: it must have passed every command,
// and cannot have imported neverInstalled.
func recordedCheckProblem(attrs map[string]any) string {
	results, _ := attrs["results"].([]any)
	if len(results) == 0 {
		return "recorded with no results"
	}
	for _, r := range results {
		result, _ := r.(map[string]any)
		run, _ := result["run"].(string)
		if passed, _ := result["passed"].(bool); !passed {
			return fmt.Sprintf("recorded although `%s` did not pass", run)
		}
		if strings.Contains(run, "import "+neverInstalled) || run == "sleep infinity" {
			return fmt.Sprintf("recorded as passed although `%s` cannot pass: no build installs %s, and sleep never ends", run, neverInstalled)
		}
	}
	return ""
}

// interruptCheck starts an apply and sends it SIGINT a while after a check's sandbox starts, if
// one still runs then. The CLI must stop by itself; checkProblems then finds no check sandbox
// running and no check recorded.
func (s *sequence) interruptCheck(out *outcome, st step) error {
	p, signalled, err := s.applySignalled(st.Arg, syscall.SIGINT, func() (bool, error) {
		running, err := s.emu.checkSandboxes()
		return len(running) > 0, err
	}, nil)
	if err != nil {
		return err
	}
	if !signalled {
		out.note = "no check was running to interrupt"
	}
	r, err := p.wait()
	out.runs = append(out.runs, r)
	if err == nil && r.code == 0 {
		out.converge = append(out.converge, s.dirs[0])
	}
	return err
}
