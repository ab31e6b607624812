package daytona

import (
	"regexp"
	"strings"
)

// The SDK's Image quotes words with shell-quote's quote() (shell-quote 1.x quote.js), so the same
// inputs render the same Dockerfile, byte for byte, as they do through the SDK. This is its string
// branch; JavaScript's \s is wider than Go's, hence jsSpace.

const jsSpace = `\t\n\v\f\r \x{a0}\x{1680}\x{2000}-\x{200a}\x{2028}\x{2029}\x{202f}\x{205f}\x{3000}\x{feff}`

var (
	quoteDoubleOrSpaceOrBackslash = regexp.MustCompile(`["` + jsSpace + `\\]`)
	quoteAnyQuoteOrSpace          = regexp.MustCompile(`["'` + jsSpace + `]`)
	quoteInDoubleQuotes           = regexp.MustCompile("([\"\\\\$`])")
	quoteSpecial                  = regexp.MustCompile("([A-Za-z]:)?([#!\"$&'()*,:;<=>?@[\\\\\\]^`{|}~])")
)

// shellQuote is quote([s]).
func shellQuote(s string) string {
	switch {
	case s == "":
		return "''"
	case strings.Contains(s, "'") && strings.Contains(s, "!"):
		return "'" + strings.ReplaceAll(s, "'", `'"'"'`) + "'"
	case quoteDoubleOrSpaceOrBackslash.MatchString(s) && !strings.Contains(s, "'"):
		return "'" + s + "'"
	case quoteAnyQuoteOrSpace.MatchString(s):
		return `"` + quoteInDoubleQuotes.ReplaceAllString(s, `\$1`) + `"`
	}
	return quoteSpecial.ReplaceAllString(s, `$1\$2`)
}

// shellQuoteAll is quote(words): each word quoted, joined by spaces.
func shellQuoteAll(words []string) string {
	quoted := make([]string, len(words))
	for i, w := range words {
		quoted[i] = shellQuote(w)
	}
	return strings.Join(quoted, " ")
}
