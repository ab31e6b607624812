package builders

import (
	"encoding/json"
	"hash/maphash"
	"runtime"
	"strings"
	"testing"
)

// escapedLine is a log line of n bytes full of every escape Scrub decodes (JSON, HTML, percent,
// form, base64 runs), at every depth, as a hostile or very chatty server may send one.
func escapedLine(n int) string {
	const unit = `{\"msg\":\"caf\u00e9 \uD83D\uDE00 &amp;lt; %2Fpath+a%252F dXNlcjpwYXNz \\\\u0026amp;\\n\"} `
	return strings.Repeat(unit, n/len(unit)+1)[:n]
}

const boundSecret = "e2b_0123456789abcdef0123456789abcdef"

func BenchmarkScrub4MiBLine(b *testing.B) {
	line := escapedLine(4 << 20)
	b.ReportAllocs()
	b.SetBytes(int64(len(line)))
	for b.Loop() {
		Scrub(line, NewSecret(boundSecret))
	}
}

func BenchmarkBuildLog4MiBLine(b *testing.B) {
	line := escapedLine(4 << 20)
	b.ReportAllocs()
	b.SetBytes(int64(len(line)))
	for b.Loop() {
		l := BuildLog{Secrets: []Secret{NewSecret(boundSecret)}}
		l.AddOutput("", line)
		l.Lines()
	}
}

// allocated is the bytes f allocates.
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// A line full of escapes costs Scrub a small multiple of its size, all decodings included (it
// cost about three thousand times its size when every decoding of the whole line was kept), and
// a log line costs what its first MaxLogLineBytes cost, however long it is.
func TestScrubCostsASmallMultipleOfItsText(t *testing.T) {
	line := escapedLine(4 << 20)
	if got := allocated(func() { Scrub(line, NewSecret(boundSecret)) }); got > 4*uint64(len(line)) {
		t.Errorf("Scrub of a %d-byte line allocated %d bytes (%.1f times), want at most 4 times", len(line), got, float64(got)/float64(len(line)))
	}
	logLine := func(line string) uint64 {
		return allocated(func() {
			l := BuildLog{Secrets: []Secret{NewSecret(boundSecret)}}
			l.AddOutput("", line)
			l.Lines()
		})
	}
	short, long := logLine(line[:2*MaxLogLineBytes]), logLine(line)
	if long > short+64<<10 {
		t.Errorf("a %d-byte log line allocated %d bytes, one of %d bytes %d: want the same", len(line), long, 2*MaxLogLineBytes, short)
	}
}

// The decodings of a window are bounded in number and in decoded bytes, however many ways its
// text decodes.
func TestScrubDecodingsAreBounded(t *testing.T) {
	for _, size := range []int{200, 40 << 10} {
		s := scrubber{seed: maphash.MakeSeed(), shortestNeedle: 8, minBase64Run: 11}
		s.root = decoding{text: []byte(escapedLine(size))}
		all := s.decodeAll()
		decoded := 0
		for _, d := range all[1:] {
			decoded += len(d.text)
		}
		if budget := max(decodedBytesPerByte*size, minDecodedBytes); len(all) > maxDecodings || decoded > budget {
			t.Errorf("%d bytes: %d decodings of %d bytes, want at most %d of %d", size, len(all), decoded, maxDecodings, budget)
		}
		if len(all) < 8 {
			t.Errorf("%d bytes: only %d decodings: the line should decode many ways", size, len(all))
		}
	}
}

// A secret whose encoding straddles the boundary between two of Scrub's windows is found.
func TestScrubFindsASecretAcrossWindows(t *testing.T) {
	const secret = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"
	for _, form := range []string{secret, uEverything(secret), url_(secret)} {
		for _, at := range []int{scrubWindow - len(form)/2, 2*scrubWindow - 3, 3 * scrubWindow} {
			text := strings.Repeat(".", at) + form + strings.Repeat(".", scrubWindow)
			if got := Scrub(text, NewSecret(secret)); survives(got, form) || strings.Count(got, Redacted) != 1 {
				t.Errorf("%q at %d survives Scrub or is redacted more than once", form[:8], at)
			}
		}
	}
}

func url_(s string) string { return strings.ReplaceAll(s, "/", "%2F") }

// Go's json.Marshal writes & < > as \u0026 \u003c \u003e and " as \": a request body quoted in
// base64 (a debugging proxy's echo) hides a password with them unless the base64 is decoded
// and then unescaped.
func TestScrubBase64OfAJSONBody(t *testing.T) {
	const password = `p&ss<w>rd"1`
	body, _ := json.Marshal(map[string]any{"image": map[string]any{"auth": map[string]string{"username": "robot", "password": password}}})
	if !strings.Contains(string(body), `\u0026`) {
		t.Fatalf("the body should escape &: %s", body)
	}
	at := strings.Index(string(body), `p\u0026`)
	escaped := string(body)[at : at+len(`p\u0026ss\u003cw\u003erd\"1`)]
	for name, enc := range base64Encodings {
		text, core := base64Core(enc, string(body[:at]), escaped, string(body[at+len(escaped):]))
		echoed := `{"message":"bad request body ` + text + `"}`
		if got := Scrub(echoed, NewSecret(password)); survives(got, core) {
			t.Errorf("%s: the escaped password's base64 %q survives in %q", name, core, got)
		}
	}
}
