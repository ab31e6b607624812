package awsemu

import (
	"encoding/json"
	"net/http"
	"strings"
	"time"
)

// ControlPrefix is where the emulator's own control paths live, beside the AWS APIs on both
// listeners. They need no signature and are never recorded as requests:
//
//	PUT  /_emulator/code-interpreters/{id}  {"status":"READY","failureReason":""}  seed an interpreter
//	POST /_emulator/faults                  a Fault as JSON                        fail the next requests
//	POST /_emulator/deny                    {"operation":"GetCodeInterpreter"}     AccessDeniedException
//	POST /_emulator/credentials             {"accessKeyId":"...","secretAccessKey":"..."}  accept only these
//	GET  /_emulator/requests                every recorded request, as JSON
//	GET  /_emulator/code-interpreter-sessions  the live code interpreter sessions, as JSON
//	PUT  /_emulator/command-duration        {"duration":"5m"}  each executeCommand takes this long
const ControlPrefix = "/_emulator/"

func (e *Emulator) controlHandler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("PUT "+ControlPrefix+"code-interpreters/{id}", func(w http.ResponseWriter, r *http.Request) {
		var in struct {
			Status        string `json:"status"`
			FailureReason string `json:"failureReason"`
		}
		if !decodeControl(w, r, &in) {
			return
		}
		if in.Status == "" {
			http.Error(w, "status is required (READY, CREATING, CREATE_FAILED, ...)", http.StatusBadRequest)
			return
		}
		e.SeedFailedCodeInterpreter(r.PathValue("id"), in.Status, in.FailureReason)
		w.WriteHeader(http.StatusNoContent)
	})
	mux.HandleFunc("POST "+ControlPrefix+"faults", func(w http.ResponseWriter, r *http.Request) {
		var f Fault
		if !decodeControl(w, r, &f) {
			return
		}
		if err := e.InjectFault(f); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		w.WriteHeader(http.StatusNoContent)
	})
	mux.HandleFunc("POST "+ControlPrefix+"deny", func(w http.ResponseWriter, r *http.Request) {
		var in struct {
			Operation string `json:"operation"`
		}
		if !decodeControl(w, r, &in) {
			return
		}
		e.DenyAccess(in.Operation)
		w.WriteHeader(http.StatusNoContent)
	})
	mux.HandleFunc("POST "+ControlPrefix+"credentials", func(w http.ResponseWriter, r *http.Request) {
		var in struct {
			AccessKeyID     string `json:"accessKeyId"`
			SecretAccessKey string `json:"secretAccessKey"`
		}
		if !decodeControl(w, r, &in) {
			return
		}
		e.SetCredentials(in.AccessKeyID, in.SecretAccessKey)
		w.WriteHeader(http.StatusNoContent)
	})
	mux.HandleFunc("GET "+ControlPrefix+"requests", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(e.Requests())
	})
	mux.HandleFunc("PUT "+ControlPrefix+"command-duration", func(w http.ResponseWriter, r *http.Request) {
		var in struct {
			Duration string `json:"duration"`
		}
		if !decodeControl(w, r, &in) {
			return
		}
		d, err := time.ParseDuration(in.Duration)
		if err != nil || d < 0 {
			http.Error(w, "duration must be a Go duration of at least 0 (\"30s\", \"5m\")", http.StatusBadRequest)
			return
		}
		e.SetCommandDuration(d)
		w.WriteHeader(http.StatusNoContent)
	})
	mux.HandleFunc("GET "+ControlPrefix+"code-interpreter-sessions", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(append([]CodeInterpreterSession{}, e.CodeInterpreterSessions()...))
	})
	return mux
}

// decodeControl reads a control request's JSON body, answering 400 when it is not.
func decodeControl(w http.ResponseWriter, r *http.Request, into any) bool {
	dec := json.NewDecoder(r.Body)
	dec.DisallowUnknownFields()
	if err := dec.Decode(into); err != nil {
		http.Error(w, "awsemu: bad control request: "+err.Error(), http.StatusBadRequest)
		return false
	}
	return true
}

func isControl(r *http.Request) bool { return strings.HasPrefix(r.URL.Path, ControlPrefix) }
