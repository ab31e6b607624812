package builders

import (
	"hash/maphash"
	"html"
	"unicode/utf16"
	"unicode/utf8"
)

// decoding is a text decoded from the window being scanned, with, for each of its bytes, the
// span of the window it came from, so that a secret found in it is redacted where it was.
type decoding struct {
	text  []byte
	from  []span // nil: text is the window itself
	depth int    // decodings applied to the window to get here
}

// span is the part [start, end) of the original text.
type span struct{ start, end int32 }

// original is the span of the window that text[i:j] was decoded from.
func (d *decoding) original(i, j int) span {
	if d.from == nil {
		return span{int32(i), int32(j)}
	}
	first, last := d.from[i], d.from[j-1]
	return span{min(first.start, last.start), max(first.end, last.end)}
}

// Bounds on the decodings of one window (see scrubWindow): a text full of every escape decodes
// every way at every depth, so without them a line costs what its decodings cost, about a
// thousand times its size. The budget counts decoded bytes, each of which also costs a span (8
// bytes); decodings are made breadth first, so what the budget leaves out is the deepest.
const (
	// maxDecodeDepth is how many decodings deep Scrub looks: a JSON error quoting a JSON body whose
	// password was percent-encoded is three, base64 of a JSON body echoed in a JSON string too.
	maxDecodeDepth = 3
	// maxDecodings bounds the decodings of a window: depth 1 and 2 of the five decoders are 30.
	maxDecodings = 32
	// decodedBytesPerByte bounds the decoded bytes of a window, per byte of it: room for every
	// decoding at depth 1 (the four text decodings and base64 at four alignments, 3 bytes per byte).
	decodedBytesPerByte = 8
	// minDecodedBytes is the budget of a short text (an error message), room for all its decodings.
	minDecodedBytes = 8 << 10
)

// decoders undo the encodings a server applies to what it echoes: JSON string escapes (`\"`,
// `\/`, `\u00e9`, surrogate pairs), HTML character references, percent-encoding, percent-encoding
// with '+' for a space (forms, queries), and base64. Each reports false when it decoded nothing,
// so a text without escapes costs one pass; a text decoding applies after base64 too (a base64
// JSON body whose password Go's encoder wrote as `\u0026`).
var decoders = []func(*decoder) bool{unescapeJSON, unescapeHTML, unescapePercent, unescapeForm, decodeBase64Runs}

// decodeAll lists the window (s.root) and its decodings, breadth first, within the bounds above.
// Every decoding lives in s's arenas, which the next window reuses.
func (s *scrubber) decodeAll() []*decoding {
	budget := max(decodedBytesPerByte*len(s.root.text), minDecodedBytes)
	if size := min(budget, 4*len(s.root.text)); cap(s.text) < size { // most texts need less; the arenas grow if not
		s.text, s.from = make([]byte, 0, size), make([]span, 0, size)
	}
	s.text, s.from = s.text[:0], s.from[:0]
	all := append(s.decodings[:0], &s.root)
	seen := map[uint64]bool{maphash.Bytes(s.seed, s.root.text): true}
	for i := 0; i < len(all) && len(all) < maxDecodings; i++ {
		in := all[i]
		if in.depth == maxDecodeDepth {
			break // breadth first: every later one is as deep
		}
		for _, decode := range decoders {
			d := decoder{s: s, in: in, start: len(s.text), limit: budget}
			if !decode(&d) {
				s.text, s.from = s.text[:d.start], s.from[:d.start] // nothing decoded, or past the budget
				continue
			}
			out := d.result()
			if key := maphash.Bytes(s.seed, out.text); !seen[key] { // JSON then HTML is HTML then JSON
				seen[key] = true
				all = append(all, out)
				budget -= len(out.text)
			} else {
				s.text, s.from = s.text[:d.start], s.from[:d.start]
			}
			if len(all) == maxDecodings {
				break
			}
		}
	}
	s.decodings = all
	return all
}

// decoder writes a decoding of in at the end of the scrubber's arenas: the escapes it decodes,
// and the text between them as it is. Until something is decoded the decoding is in itself, so
// nothing is written: a text with nothing to decode costs nothing.
type decoder struct {
	s       *scrubber
	in      *decoding
	start   int // where the decoding starts in the arenas
	limit   int // the most bytes it may write
	kept    int // in.text[kept:] is not written yet
	decoded bool
	over    bool // it went past limit: abandoned
}

// decode writes b, decoded from in.text[start:end], after the text kept before it.
func (d *decoder) decode(b []byte, start, end int) {
	d.decoded = true
	d.keep(start)
	d.write(b, d.in.original(start, end))
	d.kept = end
}

// keep writes in.text[kept:end] as it is.
func (d *decoder) keep(end int) {
	if !d.room(end - d.kept) {
		return
	}
	d.s.text = append(d.s.text, d.in.text[d.kept:end]...)
	if d.in.from != nil {
		d.s.from = append(d.s.from, d.in.from[d.kept:end]...)
	} else {
		for k := d.kept; k < end; k++ {
			d.s.from = append(d.s.from, span{int32(k), int32(k + 1)})
		}
	}
	d.kept = end
}

// write appends b, each byte decoded from the span at.
func (d *decoder) write(b []byte, at span) {
	if !d.room(len(b)) {
		return
	}
	d.s.text = append(d.s.text, b...)
	for range b {
		d.s.from = append(d.s.from, at)
	}
}

func (d *decoder) room(n int) bool {
	d.over = d.over || len(d.s.text)-d.start+n > d.limit
	return !d.over
}

// finish keeps the text after the last escape; it reports whether a decoding was written.
func (d *decoder) finish() bool {
	if d.decoded {
		d.keep(len(d.in.text))
	}
	return d.decoded && !d.over
}

func (d *decoder) result() *decoding {
	return &decoding{text: d.s.text[d.start:], from: d.s.from[d.start:], depth: d.in.depth + 1}
}

// jsonEscapes are JSON's two-character escapes (RFC 8259 section 7), `\/` included.
var jsonEscapes = [256]byte{'"': '"', '\\': '\\', '/': '/', 'b': '\b', 'f': '\f', 'n': '\n', 'r': '\r', 't': '\t'}

func unescapeJSON(d *decoder) bool {
	t := d.in.text
	var buf [utf8.UTFMax]byte
	for i := 0; i < len(t) && !d.over; {
		if t[i] == '\\' && i+1 < len(t) {
			if c := jsonEscapes[t[i+1]]; c != 0 {
				buf[0] = c
				d.decode(buf[:1], i, i+2)
				i += 2
				continue
			}
			if r, n := jsonUnicodeEscape(t[i:]); n > 0 {
				d.decode(utf8.AppendRune(buf[:0], r), i, i+n)
				i += n
				continue
			}
		}
		i++
	}
	return d.finish()
}

// jsonUnicodeEscape reads `\uXXXX` at the start of s (two of them for a surrogate pair) and
// returns the rune and the length read, 0 when s does not start with one.
func jsonUnicodeEscape(s []byte) (rune, int) {
	r, ok := hex4(s)
	if !ok {
		return 0, 0
	}
	if utf16.IsSurrogate(r) && len(s) >= 12 {
		if low, ok := hex4(s[6:]); ok {
			if pair := utf16.DecodeRune(r, low); pair != utf8.RuneError {
				return pair, 12
			}
		}
	}
	return r, 6
}

func hex4(s []byte) (rune, bool) {
	if len(s) < 6 || s[0] != '\\' || s[1] != 'u' {
		return 0, false
	}
	var r rune
	for _, c := range s[2:6] {
		v := unhex(c)
		if v < 0 {
			return 0, false
		}
		r = r<<4 | rune(v)
	}
	return r, true
}

// maxCharacterReference bounds the length of an HTML character reference ("&#x1F600;", "&amp;").
const maxCharacterReference = 40

// xmlEntities are the references nearly every echo uses, decoded without html's allocations.
var xmlEntities = map[string]byte{"&amp;": '&', "&lt;": '<', "&gt;": '>', "&quot;": '"', "&apos;": '\'', "&#39;": '\'', "&#34;": '"'}

func unescapeHTML(d *decoder) bool {
	t := d.in.text
	var buf [1]byte
	for i := 0; i < len(t) && !d.over; {
		if t[i] == '&' {
			if end := indexByte(t[i:min(len(t), i+maxCharacterReference)], ';'); end > 0 {
				ref := t[i : i+end+1]
				if c, ok := xmlEntities[string(ref)]; ok {
					buf[0] = c
					d.decode(buf[:], i, i+end+1)
					i += end + 1
					continue
				}
				if s := html.UnescapeString(string(ref)); s != string(ref) {
					d.decode([]byte(s), i, i+end+1)
					i += end + 1
					continue
				}
			}
		}
		i++
	}
	return d.finish()
}

func unescapePercent(d *decoder) bool { return percentDecode(d, false) }

// unescapeForm is percent-decoding with '+' for a space; it decodes nothing when the text holds
// no '+', since unescapePercent then decodes it the same.
func unescapeForm(d *decoder) bool {
	if indexByte(d.in.text, '+') < 0 {
		return false
	}
	return percentDecode(d, true)
}

func percentDecode(d *decoder, form bool) bool {
	t := d.in.text
	var buf [1]byte
	for i := 0; i < len(t) && !d.over; {
		switch {
		case t[i] == '%' && i+2 < len(t) && unhex(t[i+1]) >= 0 && unhex(t[i+2]) >= 0:
			buf[0] = byte(unhex(t[i+1])<<4 | unhex(t[i+2]))
			d.decode(buf[:], i, i+3)
			i += 3
		case form && t[i] == '+':
			buf[0] = ' '
			d.decode(buf[:], i, i+1)
			i++
		default:
			i++
		}
	}
	return d.finish()
}

// unhex is c's value as a hexadecimal digit, -1 for another character.
func unhex(c byte) int {
	switch {
	case '0' <= c && c <= '9':
		return int(c - '0')
	case 'a' <= c && c <= 'f':
		return int(c-'a') + 10
	case 'A' <= c && c <= 'F':
		return int(c-'A') + 10
	}
	return -1
}

func indexByte(b []byte, c byte) int {
	for i, x := range b {
		if x == c {
			return i
		}
	}
	return -1
}

// decodeBase64Runs decodes every run of base64 characters (standard and URL alphabets, padding
// left off) from each of its first four characters, so that a secret in an encoding that starts
// mid-run is found too. The secret's own alignment needs nothing more: base64("user:password")
// decodes to the password whatever the username's length. Of each decoding it keeps the stretches
// of UTF-8 as long as the shortest needle, each followed by a NUL: a secret is UTF-8, and so is
// what holds it escaped (a JSON body), while the decoding of a word, or of a run at the wrong
// alignment, is bytes that are seldom UTF-8 for long. A run too short to hold the shortest needle
// is left out.
func decodeBase64Runs(d *decoder) bool {
	t := d.in.text
	for i := 0; i < len(t) && !d.over; {
		if base64Value(t[i]) < 0 {
			i++
			continue
		}
		end := i
		for end < len(t) && base64Value(t[end]) >= 0 {
			end++
		}
		for start := i; start < i+4 && end-start >= d.s.minBase64Run; start++ {
			d.base64(start, end)
		}
		i = end
	}
	return len(d.s.text) > d.start && !d.over
}

// base64 decodes in.text[start:end], each byte from the four characters of its group, and writes
// the UTF-8 stretches of it.
func (d *decoder) base64(start, end int) {
	s := d.s
	s.b64text, s.b64from = s.b64text[:0], s.b64from[:0]
	for g := start; g+1 < end; g += 4 {
		n := min(4, end-g)
		var bits uint32
		for k := range n {
			bits |= uint32(base64Value(d.in.text[g+k])) << (18 - 6*k)
		}
		s.b64text = append(s.b64text, byte(bits>>16), byte(bits>>8), byte(bits))[:len(s.b64text)+n-1]
		for range n - 1 {
			s.b64from = append(s.b64from, d.in.original(g, g+n))
		}
	}
	for from := 0; from < len(s.b64text) && !d.over; {
		to := from
		for to < len(s.b64text) {
			r, size := utf8.DecodeRune(s.b64text[to:])
			if r == utf8.RuneError && size < 2 {
				break
			}
			to += size
		}
		if to > from && to-from >= s.shortestNeedle && d.room(to-from+1) {
			s.text = append(append(s.text, s.b64text[from:to]...), 0)
			s.from = append(append(s.from, s.b64from[from:to]...), s.b64from[to-1])
		}
		from = to + 1
	}
}

// base64Value is c's value in the standard or the URL-safe base64 alphabet, -1 outside both.
func base64Value(c byte) int {
	switch {
	case 'A' <= c && c <= 'Z':
		return int(c - 'A')
	case 'a' <= c && c <= 'z':
		return int(c-'a') + 26
	case '0' <= c && c <= '9':
		return int(c-'0') + 52
	case c == '+' || c == '-':
		return 62
	case c == '/' || c == '_':
		return 63
	}
	return -1
}
