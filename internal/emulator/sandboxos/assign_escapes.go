package sandboxos

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// unescapeAssignments makes backslash escapes in unquoted assignment values mean what bash makes
// them mean: mvdan.cc/sh v3.14.1 expands an assignment's value with expand.Literal, which keeps the
// backslash of an unquoted escape (X=it\'s became it\'s, where bash gives it's), while command
// arguments drop it. Each escaped character is rewritten as a double-quoted one, which both read alike.
func unescapeAssignments(file *syntax.File) {
	syntax.Walk(file, func(n syntax.Node) bool {
		if as, ok := n.(*syntax.Assign); ok && as.Value != nil {
			as.Value.Parts = unescapedParts(as.Value.Parts)
		}
		return true
	})
}

func unescapedParts(parts []syntax.WordPart) []syntax.WordPart {
	var out []syntax.WordPart
	for _, part := range parts {
		lit, ok := part.(*syntax.Lit)
		if !ok || !strings.Contains(lit.Value, `\`) {
			out = append(out, part)
			continue
		}
		s := lit.Value
		for {
			i := strings.IndexByte(s, '\\')
			if i < 0 || i == len(s)-1 {
				break // a trailing backslash is kept, as bash keeps it
			}
			escaped := s[i+1 : i+2]
			if strings.Contains(`"\$`+"`", escaped) {
				escaped = `\` + escaped // still escaped inside double quotes
			}
			out = append(out, &syntax.Lit{Value: s[:i]}, &syntax.DblQuoted{Parts: []syntax.WordPart{&syntax.Lit{Value: escaped}}})
			s = s[i+2:]
		}
		out = append(out, &syntax.Lit{Value: s})
	}
	return out
}
