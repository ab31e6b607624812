package apihttp

import "fmt"

// Bounds on the shape of a JSON answer, checked before it is decoded. The byte bound
// (MaxAnswerBody) alone is not enough: 16 MiB of `{},` is five million array elements, and each
// decodes into a value many times its three bytes (a log entry, a listed template), so one answer
// could cost gigabytes.
const (
	// MaxAnswerItems bounds an answer's items unless its Request says otherwise (Request.MaxItems):
	// the elements of its arrays and the members of its objects, counted over the whole answer. A
	// real answer holds far fewer: a status poll has at most 100 log entries of 4 fields, a page of
	// OpenSandbox snapshots or sandboxes 100 entries of a few dozen fields, a tag list a few per tag.
	MaxAnswerItems = 100_000
	// MaxAnswerDepth bounds how deeply an answer's arrays and objects nest; real answers nest a few levels.
	MaxAnswerDepth = 32
)

// answerShape counts body's items (as MaxAnswerItems counts them) and nesting in one pass over its
// bytes, holding nothing of it, and describes the first bound it crosses ("" within both). The
// count is exact for valid JSON; anything else is refused by the decoder after it.
func answerShape(body []byte, maxItems int) string {
	items, depth := 0, 0
	inString, escaped := false, false
	opened := false // just after '{' or '[': a value other than the closing bracket is the container's first item
	for _, c := range body {
		if inString {
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
			}
			continue
		}
		switch c {
		case ' ', '\t', '\n', '\r':
			continue
		}
		if opened && c != '}' && c != ']' {
			items++
		}
		opened = false
		switch c {
		case '"':
			inString = true
		case '{', '[':
			if depth++; depth > MaxAnswerDepth {
				return fmt.Sprintf("nests arrays and objects more than %d deep", MaxAnswerDepth)
			}
			opened = true
		case '}', ']':
			depth--
		case ',':
			items++
		}
		if items > maxItems {
			return fmt.Sprintf("holds more than %d items (array elements and object members)", maxItems)
		}
	}
	return ""
}
