package daytona

import (
	"fmt"
	"regexp"
	"strconv"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders"
)

// templateIDRule is E2B's name rule: it keeps names portable, and its characters are all ones a
// snapshot name may hold (IMAGE_NAME_REGEX in snapshot.service.ts: letters, digits, '.', '_',
// '-', ':'), while ':' is not among them: the template id ends where a snapshot name's ":" starts.
var templateIDRule = builders.NameRule

// inputsMark separates a snapshot name's template id from its inputs, as E2B's reserved
// inputs-<fingerprint> tags record a build's inputs.
const inputsMark = ":inputs-"

// snapshotName is the name of a build of templateID from inputs with fingerprint: generation 0
// for the first, n for the nth forced rebuild of the same inputs (a name is never reused).
func snapshotName(templateID, fingerprint string, generation int) string {
	name := templateID + inputsMark + fingerprint
	if generation > 0 {
		name += "." + strconv.Itoa(generation)
	}
	return name
}

// ownName is a snapshot name parsed: a build of one template.
type ownName struct {
	fingerprint string
	generation  int
}

var namePattern = regexp.MustCompile(`^([a-z0-9_-]+)` + regexp.QuoteMeta(inputsMark) + `([0-9a-f]{16})(?:\.([1-9][0-9]{0,8}))?$`)

// parseName reads name as a build of templateID; false when it is not one (another template's,
// or a snapshot nobody built here).
func parseName(templateID, name string) (ownName, bool) {
	m := namePattern.FindStringSubmatch(name)
	if m == nil || m[1] != templateID {
		return ownName{}, false
	}
	gen := 0
	if m[3] != "" {
		gen, _ = strconv.Atoi(m[3]) // at most 9 digits
	}
	return ownName{fingerprint: m[2], generation: gen}, true
}

// templateOf is the template id a snapshot name builds, "" when it is none built here.
func templateOf(name string) string {
	if m := namePattern.FindStringSubmatch(name); m != nil && templateIDRule.Pattern.MatchString(m[1]) {
		return m[1]
	}
	return ""
}

// describe names a snapshot for messages.
func describe(s snapshot) string { return fmt.Sprintf("snapshot %s (%s)", s.Name, s.State) }
