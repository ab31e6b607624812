package builders

import (
	"strings"
	"unicode/utf8"
)

// MaxLogLineBytes is the longest log line shown: the rest of a longer one (a progress bar redrawn
// without newlines, a hostile server's megabytes) is cut, after the secrets are looked for past
// the cut, so that one straddling it is redacted up to the cut.
const MaxLogLineBytes = 4 << 10

// KeptLogLineBytes is how much of a line a backend that holds lines before they reach the log
// (execd's output) keeps: the part shown and enough past it to find a secret straddling the cut.
const KeptLogLineBytes = 2 * MaxLogLineBytes

// lineWindow scrubs a stream of lines as one text, so that a secret split across lines (a command
// writing it in two pieces, execd sending each piece as an event) is redacted in each. It holds
// back the newest lines until the longest a secret can be (reachOf) has followed them: a secret
// that starts in a line emitted is then wholly in the text scanned when it was emitted.
type lineWindow struct {
	held      []heldLine
	heldBytes int // the held lines' text, each line break counted as a byte
}

// heldLine is a line not yet emitted.
type heldLine struct {
	label  string // the log's own (a stream's name): shown, not scanned
	text   string // what is scanned: the line's first MaxLogLineBytes and the reach past them
	cut    bool   // the line went on past MaxLogLineBytes
	secret []span // the parts of text found to hold a secret so far
}

// add scrubs line with the lines held before it, then emits each line that no secret can reach
// past any more.
func (w *lineWindow) add(label, line string, secrets []Secret, emit func(string)) {
	needles := scrubNeedles(secrets)
	reach := reachOf(needles)
	text, cut := scannedPart(line, reach)
	w.held = append(w.held, heldLine{label: label, text: text, cut: cut})
	w.heldBytes += len(text) + 1
	if len(needles) > 0 {
		w.scrub(needles)
	}
	for len(w.held) > 0 && w.heldBytes-len(w.held[0].text)-1 >= reach {
		w.heldBytes -= len(w.held[0].text) + 1
		emit(w.held[0].shown())
		w.held = w.held[1:]
	}
}

// flush emits every line held, as it is scrubbed so far.
func (w *lineWindow) flush(emit func(string)) {
	for _, l := range w.held {
		emit(l.shown())
	}
	w.held, w.heldBytes = nil, 0
}

// scrub looks for the needles in the held lines joined end to end, and records what it finds in
// each line a secret crosses.
func (w *lineWindow) scrub(needles []string) {
	var joined strings.Builder
	for _, l := range w.held {
		joined.WriteString(l.text)
	}
	found := findSecrets(joined.String(), needles)
	var start int32
	for i := range w.held {
		l := &w.held[i]
		end := start + int32(len(l.text))
		for _, sp := range found {
			if sp.start < end && sp.end > start {
				l.secret = append(l.secret, span{max(sp.start, start) - start, min(sp.end, end) - start})
			}
		}
		l.secret = mergeSpans(l.secret)
		start = end
	}
}

// shown is the line as the log shows it: redacted, cut at MaxLogLineBytes (a redaction crossing
// the cut is kept whole), under its label.
func (l heldLine) shown() string {
	if !l.cut {
		return l.label + redact(l.text, l.secret)
	}
	cut := min(MaxLogLineBytes, len(l.text))
	for cut > 0 && cut < len(l.text) && !utf8.RuneStart(l.text[cut]) {
		cut-- // not into a character
	}
	var secret []span
	for _, sp := range l.secret {
		if sp.start < int32(cut) {
			secret = append(secret, span{sp.start, min(sp.end, int32(cut))})
		}
	}
	return l.label + redact(l.text[:cut], secret) + "…"
}

// scannedPart is the part of line a log scans: colour codes stripped (as E2B's SDKs strip them),
// MaxLogLineBytes and reach past them; cut tells whether the line goes on past MaxLogLineBytes.
// Colour codes are stripped from no more than twice that, so a line of megabytes costs what its
// start costs.
func scannedPart(line string, reach int) (text string, cut bool) {
	scanned := MaxLogLineBytes + reach
	text = ansiEscape.ReplaceAllString(line[:min(len(line), 2*scanned)], "")
	cut = len(text) > MaxLogLineBytes || len(line) > 2*scanned
	return text[:min(len(text), scanned)], cut
}
