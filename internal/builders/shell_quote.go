package builders

import "strings"

// ShellQuote single-quotes s for a POSIX shell, so it stays one argument and nothing in it is
// expanded; a single quote inside closes the quoting, is escaped, and reopens it.
func ShellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }
