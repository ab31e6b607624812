package contract

import (
	"bufio"
	"bytes"
	"io"
	"net"
	"net/http"
)

// Wrap returns a handler that serves through h and validates each exchange. A connection the
// handler hijacks (a dropped poll) has only its request validated.
func (v *Validator) Wrap(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(body))
		rec := &recordingWriter{ResponseWriter: w, status: http.StatusOK}
		h.ServeHTTP(rec, r)
		if rec.hijacked {
			v.check(r, body, nil)
			return
		}
		v.check(r, body, &response{status: rec.status, header: w.Header().Clone(), body: rec.body.Bytes()})
	})
}

// recordingWriter writes through to the client and keeps a copy of what was written.
type recordingWriter struct {
	http.ResponseWriter
	status      int
	wroteHeader bool
	hijacked    bool
	body        bytes.Buffer
}

func (w *recordingWriter) WriteHeader(status int) {
	if !w.wroteHeader {
		w.status, w.wroteHeader = status, true
	}
	w.ResponseWriter.WriteHeader(status)
}

func (w *recordingWriter) Write(b []byte) (int, error) {
	w.wroteHeader = true
	w.body.Write(b)
	return w.ResponseWriter.Write(b)
}

func (w *recordingWriter) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	hj, ok := w.ResponseWriter.(http.Hijacker)
	if !ok {
		return nil, nil, http.ErrNotSupported
	}
	w.hijacked = true
	return hj.Hijack()
}

func (w *recordingWriter) Flush() {
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}
