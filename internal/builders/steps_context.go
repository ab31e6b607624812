package builders

import (
	"cmp"
	"maps"
	"path"
	"strings"
)

// StepsContext is what the steps leave behind besides files: the environment, working directory
// and user that E2B keeps in the template (orchestrator template/metadata Context) and that an
// OpenSandbox snapshot cannot keep, so consumers pass them when they start a sandbox.
type StepsContext struct {
	Env     map[string]string // nil: no env step
	Workdir string            // "": none set (absolute otherwise)
	User    string            // "": none set (root)
}

// Apply records what a step sets: env, workdir or user.
func (c *StepsContext) Apply(s BuildStep) {
	switch {
	case s.Env != nil:
		if c.Env == nil {
			c.Env = map[string]string{}
		}
		maps.Copy(c.Env, s.Env)
	case s.Workdir != nil: // relative to the current one, else to / (commands/workdir.go)
		c.Workdir = path.Join(cmp.Or(c.Workdir, "/"), *s.Workdir)
	case s.User != nil:
		c.User = *s.User
	}
}

// Resolve makes p absolute: relative to the working directory, or without one to the user's home,
// as E2B resolves a COPY destination (commands/copy_script.sh); a trailing "/" is kept.
func (c StepsContext) Resolve(p string) string {
	if path.IsAbs(p) {
		return p
	}
	base := c.Workdir
	switch {
	case base != "":
	case c.User == "" || c.User == "root":
		base = "/root"
	default:
		base = "/home/" + c.User
	}
	resolved := path.Join(base, p)
	if strings.HasSuffix(p, "/") && resolved != "/" {
		resolved += "/"
	}
	return resolved
}

// StepsContext is what the spec's steps leave: each applied in order.
func (s TemplateSpec) StepsContext() StepsContext {
	var c StepsContext
	for _, step := range s.BuildSteps() {
		c.Apply(step.BuildStep)
	}
	return c
}
