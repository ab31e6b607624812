package builders

import (
	"html"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// decoding is a text decoded from the original one, with, for each of its bytes, the span of the
// original it came from, so that a secret found in it is redacted where it was.
type decoding struct {
	text string
	from []span // nil: text is the original
}

// span is the part [start, end) of the original text.
type span struct{ start, end int32 }

// original is the span of the original text that text[i:j] was decoded from.
func (d decoding) original(i, j int) span {
	if d.from == nil {
		return span{int32(i), int32(j)}
	}
	first, last := d.from[i], d.from[j-1]
	return span{min(first.start, last.start), max(first.end, last.end)}
}

// textDecoders undo the text encodings a server applies to what it echoes: JSON string escapes
// (`\"`, `\/`, `\u00e9`, surrogate pairs), HTML character references, percent-encoding, and
// percent-encoding with '+' for a space (forms, queries). Each reports false when it decoded
// nothing, so a text without escapes costs one pass.
var textDecoders = []func(decoding) (decoding, bool){unescapeJSON, unescapeHTML, unescapePercent, unescapeForm}

// decodings lists text and every decoding of it up to maxDecodeDepth text decodings deep, plus
// the base64 decoding of each (base64 decodes to bytes, not text: nothing is decoded after it).
func decodings(text string) []decoding {
	level := []decoding{{text: text}}
	all, seen := level, map[string]bool{text: true}
	for depth := 0; depth < maxDecodeDepth && len(level) > 0; depth++ {
		var next []decoding
		for _, d := range level {
			for _, decode := range textDecoders {
				if out, ok := decode(d); ok && !seen[out.text] { // JSON then HTML is HTML then JSON
					seen[out.text] = true
					next = append(next, out)
				}
			}
		}
		all = append(all, next...)
		level = next
	}
	textual := len(all)
	for _, d := range all[:textual] {
		if out, ok := decodeBase64Runs(d); ok {
			all = append(all, out)
		}
	}
	return all
}

// decoder writes a decoding of in. Until something is decoded the decoding is in itself, so
// nothing is written: a text with nothing to decode costs no allocation.
type decoder struct {
	in      decoding
	out     []byte
	from    []span
	decoded bool
}

// keep copies in.text[i] as it is.
func (d *decoder) keep(i int) {
	if d.decoded {
		d.write(d.in.text[i:i+1], i, i+1)
	}
}

// decode writes s, decoded from in.text[start:end].
func (d *decoder) decode(s string, start, end int) {
	if !d.decoded {
		d.decoded = true
		for i := range start {
			d.keep(i)
		}
	}
	d.write(s, start, end)
}

func (d *decoder) write(s string, start, end int) {
	at := d.in.original(start, end)
	for range len(s) {
		d.from = append(d.from, at)
	}
	d.out = append(d.out, s...)
}

func (d *decoder) result() (decoding, bool) {
	return decoding{text: string(d.out), from: d.from}, d.decoded
}

// jsonEscapes are JSON's two-character escapes (RFC 8259 section 7), `\/` included.
var jsonEscapes = map[byte]string{'"': `"`, '\\': `\`, '/': "/", 'b': "\b", 'f': "\f", 'n': "\n", 'r': "\r", 't': "\t"}

func unescapeJSON(in decoding) (decoding, bool) {
	t := in.text
	if !strings.Contains(t, `\`) {
		return decoding{}, false
	}
	d := decoder{in: in}
	for i := 0; i < len(t); {
		if t[i] == '\\' && i+1 < len(t) {
			if s, ok := jsonEscapes[t[i+1]]; ok {
				d.decode(s, i, i+2)
				i += 2
				continue
			}
			if r, n := jsonUnicodeEscape(t[i:]); n > 0 {
				d.decode(string(r), i, i+n)
				i += n
				continue
			}
		}
		d.keep(i)
		i++
	}
	return d.result()
}

// jsonUnicodeEscape reads `\uXXXX` at the start of s (two of them for a surrogate pair) and
// returns the rune and the length read, 0 when s does not start with one.
func jsonUnicodeEscape(s string) (rune, int) {
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

func hex4(s string) (rune, bool) {
	if len(s) < 6 || s[0] != '\\' || s[1] != 'u' {
		return 0, false
	}
	n, err := strconv.ParseUint(s[2:6], 16, 16)
	return rune(n), err == nil
}

// maxCharacterReference bounds the length of an HTML character reference ("&#x1F600;", "&amp;").
const maxCharacterReference = 40

func unescapeHTML(in decoding) (decoding, bool) {
	t := in.text
	if !strings.Contains(t, "&") {
		return decoding{}, false
	}
	d := decoder{in: in}
	for i := 0; i < len(t); {
		if t[i] == '&' {
			if end := strings.IndexByte(t[i:min(len(t), i+maxCharacterReference)], ';'); end > 0 {
				ref := t[i : i+end+1]
				if s := html.UnescapeString(ref); s != ref {
					d.decode(s, i, i+end+1)
					i += end + 1
					continue
				}
			}
		}
		d.keep(i)
		i++
	}
	return d.result()
}

func unescapePercent(in decoding) (decoding, bool) { return percentDecode(in, false) }

// unescapeForm is percent-decoding with '+' for a space; it reports false when the text held no
// '+', since unescapePercent then decodes it the same.
func unescapeForm(in decoding) (decoding, bool) {
	if !strings.Contains(in.text, "+") {
		return decoding{}, false
	}
	return percentDecode(in, true)
}

func percentDecode(in decoding, form bool) (decoding, bool) {
	t := in.text
	if !strings.Contains(t, "%") && !form {
		return decoding{}, false
	}
	d := decoder{in: in}
	for i := 0; i < len(t); {
		switch {
		case t[i] == '%' && i+2 < len(t) && isHex(t[i+1]) && isHex(t[i+2]):
			b, _ := strconv.ParseUint(t[i+1:i+3], 16, 8)
			d.decode(string([]byte{byte(b)}), i, i+3)
			i += 3
		case form && t[i] == '+':
			d.decode(" ", i, i+1)
			i++
		default:
			d.keep(i)
			i++
		}
	}
	return d.result()
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

// minBase64Run is the shortest run of base64 characters decoded: one group, 3 bytes.
const minBase64Run = 4

// decodeBase64Runs decodes every run of base64 characters (standard and URL alphabets, padding
// left off) from each of its first four characters, so that a secret in an encoding that starts
// mid-run is found too. The secret's own alignment needs nothing more: base64("user:password")
// decodes to the password whatever the username's length. Decodings are separated by a NUL.
func decodeBase64Runs(in decoding) (decoding, bool) {
	t := in.text
	d := decoder{in: in}
	for i := 0; i < len(t); {
		if base64Value(t[i]) < 0 {
			i++
			continue
		}
		end := i
		for end < len(t) && base64Value(t[end]) >= 0 {
			end++
		}
		for start := i; start < i+4 && end-start >= minBase64Run; start++ {
			d.base64(start, end)
			d.write("\x00", end-1, end)
		}
		i = end
	}
	return d.result()
}

// base64 decodes in.text[start:end], each byte from the four characters of its group.
func (d *decoder) base64(start, end int) {
	for g := start; g+1 < end; g += 4 {
		n := min(4, end-g)
		var bits uint32
		for k := range n {
			bits |= uint32(base64Value(d.in.text[g+k])) << (18 - 6*k)
		}
		group := []byte{byte(bits >> 16), byte(bits >> 8), byte(bits)}
		d.decode(string(group[:n-1]), g, g+n)
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
