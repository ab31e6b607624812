package builders

import (
	"regexp"
	"strings"
)

// ShellQuote single-quotes s for a POSIX shell, so it stays one argument and nothing in it is
// expanded; a single quote inside closes the quoting, is escaped, and reopens it.
func ShellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// unsafeShellChar is what Python's shlex.quote (and E2B's SDKs, which port it) considers unsafe.
var unsafeShellChar = regexp.MustCompile(`[^\w@%+=:,./-]`)

// ShellQuoteIfNeeded quotes s only when the shell would read it as more than one plain word, as
// E2B's SDKs do (js-sdk utils.ts shellQuote, a port of shlex.quote): "pandas==2.2.3" stays as it is,
// so a step renders byte for byte as the SDK renders it and shares its cached layer, while
// "numpy>=2" is quoted instead of becoming a redirection.
func ShellQuoteIfNeeded(s string) string {
	switch {
	case s == "":
		return "''"
	case !unsafeShellChar.MatchString(s):
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'"'"'`) + "'"
}
