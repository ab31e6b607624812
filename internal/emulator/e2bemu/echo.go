package e2bemu

import (
	"bufio"
	"bytes"
	"encoding/json"
	"net"
	"net/http"
)

// echoWriter appends the request body to the message of every error answer, as a careless
// server does ("Invalid request body: ..."): a client that shows server messages must scrub the
// secrets it sent. Turned on with EchoRequestBodies or the control path.
type echoWriter struct {
	http.ResponseWriter
	body   []byte
	status int
}

func (e *echoWriter) WriteHeader(status int) {
	e.status = status
	if status < http.StatusBadRequest || len(e.body) == 0 {
		e.ResponseWriter.WriteHeader(status)
		return
	}
	e.ResponseWriter.Header().Del("Content-Length")
	e.ResponseWriter.WriteHeader(status)
}

func (e *echoWriter) Write(p []byte) (int, error) {
	if e.status < http.StatusBadRequest || len(e.body) == 0 {
		return e.ResponseWriter.Write(p)
	}
	var msg apiError
	if err := json.Unmarshal(bytes.TrimSpace(p), &msg); err != nil {
		return e.ResponseWriter.Write(p)
	}
	msg.Message += " (request body: " + string(e.body) + ")"
	out, _ := json.Marshal(msg)
	if _, err := e.ResponseWriter.Write(append(out, '\n')); err != nil {
		return 0, err
	}
	return len(p), nil
}

// Hijack lets dropConnection work through the wrapper.
func (e *echoWriter) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	return http.NewResponseController(e.ResponseWriter).Hijack()
}

// EchoRequestBodies makes error answers repeat the request's body in their message (on) or not.
func (s *Server) EchoRequestBodies(on bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.echoBodies = on
}
