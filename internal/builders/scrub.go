package builders

import (
	"cmp"
	"errors"
	"slices"
	"strings"
)

// minScrubbedPart is the shortest line of a multi-line secret (a PEM key's base64 lines) that is
// scrubbed on its own: shorter ones ("-----END PRIVATE KEY-----" aside) would redact ordinary words.
const minScrubbedPart = 16

// maxDecodeDepth is how many encodings deep Scrub looks: a JSON error quoting a JSON body whose
// password was percent-encoded is three.
const maxDecodeDepth = 3

// Scrub replaces every secret in text with Redacted, in any form a server or registry may echo it
// back. Rather than list the encodings of each secret (an echoing server picks its own: `\/`,
// `\u00e9`, `&amp;`, `%2F`, base64 of "user:password" at any alignment), it decodes the text
// every way it could be encoded, up to maxDecodeDepth levels, looks for each secret (and each long
// line of a multi-line one, such as a PEM key) in every decoding, and redacts the part of the
// original text each occurrence was decoded from. Every place text leaves the provider (errors,
// details, build logs, diagnostics) goes through it.
func Scrub(text string, secrets ...Secret) string {
	needles := scrubNeedles(secrets)
	if len(needles) == 0 || text == "" {
		return text
	}
	var found []span
	for _, v := range decodings(text) {
		for _, needle := range needles {
			for at := 0; ; at++ {
				i := strings.Index(v.text[at:], needle)
				if i < 0 {
					break
				}
				at += i
				found = append(found, v.original(at, at+len(needle)))
			}
		}
	}
	return redact(text, found)
}

// ScrubError is err with its message scrubbed of secrets. An error whose text held none is
// returned as it is; otherwise the result still matches what err matched with errors.Is (a
// deadline stays a TIMEOUT) but no longer unwraps to the causes whose text leaked. A *StageError
// keeps its stage and logs.
func ScrubError(err error, secrets ...Secret) error {
	if se, ok := err.(*StageError); ok { // the outermost stage, as DetailOf reads it
		if inner := ScrubError(se.Err, secrets...); inner != se.Err {
			return AtStage(se.Stage, inner, se.Logs...)
		}
		return err
	}
	if err == nil {
		return nil
	}
	msg := err.Error()
	if scrubbed := Scrub(msg, secrets...); scrubbed != msg {
		return &scrubbedError{msg: scrubbed, cause: err}
	}
	return err
}

type scrubbedError struct {
	msg   string
	cause error
}

func (e *scrubbedError) Error() string        { return e.msg }
func (e *scrubbedError) Is(target error) bool { return errors.Is(e.cause, target) }

// scrubNeedles are the texts to look for: each secret, and each long line of a multi-line one.
func scrubNeedles(secrets []Secret) []string {
	var needles []string
	for _, s := range secrets {
		v := s.Reveal()
		if v == "" {
			continue
		}
		needles = append(needles, v)
		if !strings.Contains(v, "\n") {
			continue
		}
		for _, line := range strings.Split(v, "\n") {
			if line = strings.TrimSpace(line); len(line) >= minScrubbedPart {
				needles = append(needles, line)
			}
		}
	}
	slices.Sort(needles)
	return slices.Compact(needles)
}

// redact replaces each span of text (merged where they overlap or touch) with Redacted.
func redact(text string, spans []span) string {
	if len(spans) == 0 {
		return text
	}
	slices.SortFunc(spans, func(a, b span) int { return cmp.Compare(a.start, b.start) })
	var b strings.Builder
	var done int32
	for i := 0; i < len(spans); {
		cur := spans[i]
		for i++; i < len(spans) && spans[i].start <= cur.end; i++ {
			cur.end = max(cur.end, spans[i].end)
		}
		b.WriteString(text[done:cur.start])
		b.WriteString(Redacted)
		done = cur.end
	}
	b.WriteString(text[done:])
	return b.String()
}
