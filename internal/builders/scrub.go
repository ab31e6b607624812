package builders

import (
	"bytes"
	"cmp"
	"errors"
	"hash/maphash"
	"slices"
	"strings"
)

// minScrubbedPart is the shortest line of a multi-line secret (a PEM key's base64 lines) that is
// scrubbed on its own: shorter ones ("-----END PRIVATE KEY-----" aside) would redact ordinary words.
const minScrubbedPart = 16

// Scrub replaces every secret in text with Redacted, in any form a server or registry may echo it
// back. Rather than list the encodings of each secret (an echoing server picks its own: `\/`,
// `\u00e9`, `&amp;`, `%2F`, base64 of "user:password" at any alignment), it decodes the text
// every way it could be encoded, up to maxDecodeDepth levels, looks for each secret (and each long
// line of a multi-line one, such as a PEM key) in every decoding, and redacts the part of the
// original text each occurrence was decoded from. Every place text leaves the provider (errors,
// details, build logs, diagnostics) goes through it.
//
// Its work is bounded by the text's size: the text is scanned in windows of scrubWindow bytes
// that overlap by the longest a secret can be once encoded (reachOf), each window's decodings
// are bounded (decodeAll) and their memory is reused by the next window.
func Scrub(text string, secrets ...Secret) string {
	needles := scrubNeedles(secrets)
	if len(needles) == 0 || text == "" {
		return text
	}
	return redact(text, findSecrets(text, needles))
}

// scrubWindow is how much of a text is decoded at once.
const scrubWindow = 32 << 10

// maxEncodingGrowth is the most bytes an encoding Scrub decodes writes for one byte of a secret:
// 'A' written `\u0041` and percent-encoded, %5Cu0041.
const maxEncodingGrowth = 8

// reachOf is the longest a needle can be in the text, encoded: how far past a boundary (of a
// window, a cut, a line) the text must be read for a secret that straddles it to be found.
func reachOf(needles []string) int {
	longest := 0
	for _, n := range needles {
		longest = max(longest, len(n))
	}
	return maxEncodingGrowth * longest
}

// findSecrets returns the spans of text that hold a needle in some encoding, merged and sorted.
func findSecrets(text string, needles []string) []span {
	s := scrubber{needles: make([][]byte, len(needles)), seed: maphash.MakeSeed(), shortestNeedle: len(needles[0])}
	for i, n := range needles {
		s.needles[i] = []byte(n)
		s.shortestNeedle = min(s.shortestNeedle, len(n))
	}
	s.minBase64Run = max(4, (4*s.shortestNeedle+2)/3) // a group at least, and the characters that encode the needle
	reach := reachOf(needles)
	step := max(scrubWindow, reach) // each window is read at most twice
	for start := 0; ; start += step {
		end := min(len(text), start+step+reach)
		s.scan(text[start:end], int32(start))
		if end == len(text) {
			return mergeSpans(s.found)
		}
	}
}

// scrubber scans the windows of one text. Its arenas hold a window's decodings; each window
// reuses them, so a long text costs what its largest window costs.
type scrubber struct {
	needles        [][]byte
	shortestNeedle int
	minBase64Run   int // the characters that encode the shortest needle
	seed           maphash.Seed
	root           decoding
	decodings      []*decoding
	text           []byte // the decodings' bytes
	from           []span // the decodings' spans
	b64text        []byte // a run's base64 decoding, before its UTF-8 stretches are kept
	b64from        []span
	found          []span // in the text's coordinates
	foundSince     int    // found[foundSince:] are the current window's, not merged yet
}

func (s *scrubber) scan(window string, offset int32) {
	s.root = decoding{text: append(s.root.text[:0], window...)}
	s.foundSince = len(s.found)
	for _, d := range s.decodeAll() {
		for _, needle := range s.needles {
			for at := 0; ; at++ {
				i := bytes.Index(d.text[at:], needle)
				if i < 0 {
					break
				}
				at += i
				s.add(d.original(at, at+len(needle)), offset)
			}
		}
		// A text full of one secret matches once per position in every decoding: merging after each
		// keeps what is found to the disjoint spans.
		s.found = append(s.found[:s.foundSince], mergeSpans(s.found[s.foundSince:])...)
	}
}

// add records the span found at sp of the window at offset, extending the last one it overlaps.
func (s *scrubber) add(sp span, offset int32) {
	sp.start, sp.end = sp.start+offset, sp.end+offset
	if n := len(s.found); n > s.foundSince && s.found[n-1].start <= sp.start && sp.start <= s.found[n-1].end {
		s.found[n-1].end = max(s.found[n-1].end, sp.end)
		return
	}
	s.found = append(s.found, sp)
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

// mergeSpans sorts spans and merges those that overlap or touch, in place.
func mergeSpans(spans []span) []span {
	if len(spans) < 2 {
		return spans
	}
	slices.SortFunc(spans, func(a, b span) int { return cmp.Compare(a.start, b.start) })
	merged := spans[:1]
	for _, sp := range spans[1:] {
		if last := &merged[len(merged)-1]; sp.start <= last.end {
			last.end = max(last.end, sp.end)
		} else {
			merged = append(merged, sp)
		}
	}
	return merged
}

// redact replaces each of spans (merged, sorted) of text with Redacted.
func redact(text string, spans []span) string {
	if len(spans) == 0 {
		return text
	}
	var b strings.Builder
	b.Grow(len(text))
	var done int32
	for _, sp := range spans {
		b.WriteString(text[done:sp.start])
		b.WriteString(Redacted)
		done = sp.end
	}
	b.WriteString(text[done:])
	return b.String()
}
