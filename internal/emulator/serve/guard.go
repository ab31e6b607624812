package serve

import (
	"bytes"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
)

// MaxRequestBody bounds a request body an emulator reads whole: every emulated API takes JSON
// bodies of a few KB. File uploads are read as they arrive instead (Streamer).
const MaxRequestBody = 1 << 20

// Streamer is an emulator that reads some request bodies as they arrive, holding none of them
// whole (file uploads, hashed or discarded): those reach it unread and unbounded, as the real
// servers take files of any size.
type Streamer interface{ Streams(r *http.Request) bool }

// guard is what every emulator is served through. An emulator is a development tool on the
// user's machine, with control paths that need no credentials, so it answers only its own:
//   - requests addressed to this machine by a loopback name or address (or the address it listens
//     on): a web page the developer visits could otherwise drive it through DNS rebinding, which
//     reaches 127.0.0.1 under the attacker's own host name;
//   - no cross-origin browser requests that change anything (Go's CrossOriginProtection);
//   - bodies of at most MaxRequestBody, read before the emulator sees them: a larger one is
//     answered 413 and dropped, so no request can grow what an emulator keeps (and many stalled
//     ones hold little); only the uploads a Streamer reads as they arrive are passed on unread.
func guard(listenHost string, h http.Handler) http.Handler {
	streamer, _ := h.(Streamer)
	crossOrigin := http.NewCrossOriginProtection()
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if host := hostname(r.Host); !isLoopbackHost(host) && host != listenHost {
			http.Error(w, fmt.Sprintf("this emulator answers requests to a loopback address only, not to %q", r.Host), http.StatusForbidden)
			return
		}
		if err := crossOrigin.Check(r); err != nil {
			http.Error(w, "this emulator refuses cross-origin requests: "+err.Error(), http.StatusForbidden)
			return
		}
		if streamer != nil && streamer.Streams(r) {
			h.ServeHTTP(w, r)
			return
		}
		var body []byte
		err := fmt.Errorf("request bodies are limited to %d bytes", MaxRequestBody)
		if r.ContentLength <= MaxRequestBody {
			body, err = io.ReadAll(io.LimitReader(r.Body, MaxRequestBody+1))
		}
		if err != nil || len(body) > MaxRequestBody {
			http.Error(w, fmt.Sprintf("request bodies are limited to %d bytes", MaxRequestBody), http.StatusRequestEntityTooLarge)
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		h.ServeHTTP(w, r)
	})
}

// hostname is host without its port (and an IPv6 address without brackets).
func hostname(host string) string {
	if h, _, err := net.SplitHostPort(host); err == nil {
		return h
	}
	return strings.Trim(host, "[]")
}

func isLoopbackHost(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
