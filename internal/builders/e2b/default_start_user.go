package e2b

import (
	"fmt"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders"
)

// E2B runs the start and ready commands as the user the last user step set
// (orchestrator/pkg/template/build/phases/finalize/builder.go, the start metadata's Context). A
// user that a USER step creates gets no sudo: commands/user.go adds one to sudoers only when the
// step's second argument is "true", which E2B's SDKs never send (setUser takes a name only) and
// neither does this provider; E2B's own "user" is the one with NOPASSWD sudo
// (finalize/configure.sh). So DefaultStartCmd, which starts with sudo, fails at finalize after a
// user step to any other user ("sudo: a password is required"): refused here, at plan, on the step.

// usersWithSudo can run DefaultStartCmd: root, and E2B's default user.
var usersWithSudo = map[string]bool{"root": true, "user": true}

// defaultStartAsUserProblem refuses a user step that leaves the default start command to a user
// without sudo. Later steps are read too (one may switch back to root), so an unknown one defers
// the check to apply.
func defaultStartAsUserProblem(spec builders.TemplateSpec) builders.FieldErrors {
	if spec.Image == "" || spec.StartCmd != nil { // the default is for builds from image only (planBuild)
		return nil
	}
	last := -1
	for i, step := range spec.Steps {
		if step.User != nil {
			last = i
		}
	}
	if last < 0 || usersWithSudo[*spec.Steps[last].User] {
		return nil
	}
	reads := []string{"image", "start_cmd"}
	for i := last + 1; i < len(spec.Steps); i++ {
		reads = append(reads, fmt.Sprintf("steps[%d]", i))
	}
	return builders.FieldErrors{{Field: fmt.Sprintf("steps[%d].user", last), Reads: reads, Message: fmt.Sprintf(
		"E2B runs the start command as the last user step's user, and start_cmd is not set, so it would run the default "+
			"%q as %s, whom a user step gives no sudo (only root and E2B's \"user\" have it): the build would fail at "+
			"its start command. Set start_cmd to your image's start command (start_cmd = \"\" for none), or end the "+
			"steps with { user = \"root\" } (or { user = \"user\" })", DefaultStartCmd, *spec.Steps[last].User)}}
}
