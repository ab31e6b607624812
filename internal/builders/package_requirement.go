package builders

import (
	"fmt"
	"regexp"
	"strings"
)

// A package is a PEP 508 requirement: name[extras] with a version specifier or "@ url", then an
// optional "; marker". pip reads anything starting with "-" as one of its own options
// (--index-url, -r file, -e vcs+url), so a module that forwards its callers' packages must not be
// able to hand it one; and "numpy; rm -rf /" is not a marker, so it fails here, at plan time,
// instead of minutes into a build.
var (
	requirementName   = regexp.MustCompile(`^[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?`)
	requirementExtras = regexp.MustCompile(`^\[\s*(?:[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?\s*(?:,\s*[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?\s*)*)?\]`)
	versionClause     = `(?:~=|===|==|!=|<=|>=|<|>)\s*[A-Za-z0-9_.*+!-]+`
	versionSpec       = regexp.MustCompile(`^(?:\(\s*` + versionClause + `(?:\s*,\s*` + versionClause + `)*\s*\)|` + versionClause + `(?:\s*,\s*` + versionClause + `)*)`)
	urlSpec           = regexp.MustCompile(`^@\s*[A-Za-z][A-Za-z0-9+.-]*://\S+`)
	markerToken       = regexp.MustCompile(`^\s*(?:\(|\)|and\b|or\b|not\s+in\b|in\b|===|~=|==|!=|<=|>=|<|>|'[^']*'|"[^"]*"|[a-z_]+)`)
)

// markerVariables are PEP 508's environment markers.
var markerVariables = map[string]bool{
	"python_version": true, "python_full_version": true, "os_name": true, "sys_platform": true,
	"platform_release": true, "platform_system": true, "platform_version": true, "platform_machine": true,
	"platform_python_implementation": true, "implementation_name": true, "implementation_version": true, "extra": true,
}

// PackageProblem says why pkg is not a PEP 508 requirement pip can take safely, or "".
func PackageProblem(pkg string) string {
	switch {
	case strings.TrimSpace(pkg) == "":
		return "must not be empty"
	case strings.TrimSpace(pkg) != pkg:
		return "must not start or end with whitespace"
	case strings.HasPrefix(pkg, "-"):
		return fmt.Sprintf("%q starts with \"-\", which pip reads as one of its own options, not a package", pkg)
	case strings.ContainsFunc(pkg, isControlOrSeparator):
		return "must be one line of printable characters"
	}
	rest := pkg[len(requirementName.FindString(pkg)):]
	if len(rest) == len(pkg) {
		return fmt.Sprintf("%q must start with a package name (PEP 508), e.g. pandas==2.2.3", pkg)
	}
	rest = strings.TrimLeft(rest, " ")
	rest = strings.TrimLeft(rest[len(requirementExtras.FindString(rest)):], " ")
	if m := urlSpec.FindString(rest); m != "" {
		rest = rest[len(m):]
	} else {
		rest = rest[len(versionSpec.FindString(rest)):]
	}
	rest = strings.TrimSpace(rest)
	switch {
	case rest == "":
		return ""
	case !strings.HasPrefix(rest, ";"):
		return fmt.Sprintf("%q is not a PEP 508 requirement: unexpected %q", pkg, rest)
	}
	if err := checkMarker(rest[1:]); err != "" {
		return fmt.Sprintf("%q has an invalid environment marker: %s", pkg, err)
	}
	return ""
}

func isControlOrSeparator(r rune) bool {
	return r < 0x20 || r == 0x7f || r == '\u2028' || r == '\u2029' || r == '\u0085'
}

// checkMarker checks a PEP 508 marker expression: comparisons of a marker variable and a quoted
// string, joined with and / or, in parentheses as needed.
func checkMarker(marker string) string {
	tokens, rest := []string{}, marker
	for strings.TrimSpace(rest) != "" {
		t := markerToken.FindString(rest)
		if t == "" {
			return fmt.Sprintf("unexpected %q", strings.TrimSpace(rest))
		}
		tokens, rest = append(tokens, strings.Join(strings.Fields(t), " ")), rest[len(t):]
	}
	p := markerParser{tokens: tokens}
	if !p.expr() || p.pos != len(tokens) {
		return fmt.Sprintf("%q is not a marker expression such as python_version >= \"3.10\"", strings.TrimSpace(marker))
	}
	return ""
}

type markerParser struct {
	tokens []string
	pos    int
}

func (p *markerParser) next() string {
	if p.pos < len(p.tokens) {
		return p.tokens[p.pos]
	}
	return ""
}

// expr: and-terms joined by "or"; term: atoms joined by "and"; atom: ( expr ) | value op value.
func (p *markerParser) expr() bool {
	for {
		if !p.term() {
			return false
		}
		if p.next() != "or" {
			return true
		}
		p.pos++
	}
}

func (p *markerParser) term() bool {
	for {
		if !p.atom() {
			return false
		}
		if p.next() != "and" {
			return true
		}
		p.pos++
	}
}

func (p *markerParser) atom() bool {
	if p.next() == "(" {
		p.pos++
		if !p.expr() || p.next() != ")" {
			return false
		}
		p.pos++
		return true
	}
	if !p.value() {
		return false
	}
	switch p.next() {
	case "<", "<=", "!=", "==", ">=", ">", "~=", "===", "in", "not in":
		p.pos++
	default:
		return false
	}
	return p.value()
}

func (p *markerParser) value() bool {
	t := p.next()
	if markerVariables[t] || (len(t) >= 2 && (t[0] == '\'' || t[0] == '"')) {
		p.pos++
		return true
	}
	return false
}
