package googleemu

import (
	"encoding/json"
	"net/http"
)

// ControlPrefix is where the server's own control paths live, beside the token endpoint. They
// need no credentials:
//
//	POST /_emulator/faults            a Fault as JSON: fail the next token requests
//	POST /_emulator/service-accounts  a new service account's key file (token_uri: this server)
//	GET  /_emulator/issued            every access token issued, as JSON
const ControlPrefix = "/_emulator/"

func (s *Server) controlHandler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("POST "+ControlPrefix+"faults", func(w http.ResponseWriter, r *http.Request) {
		dec := json.NewDecoder(r.Body)
		dec.DisallowUnknownFields()
		var f Fault
		if err := dec.Decode(&f); err != nil {
			http.Error(w, "googleemu: bad fault: "+err.Error(), http.StatusBadRequest)
			return
		}
		if err := s.InjectFault(f); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		w.WriteHeader(http.StatusNoContent)
	})
	mux.HandleFunc("POST "+ControlPrefix+"service-accounts", func(w http.ResponseWriter, _ *http.Request) {
		key, err := s.NewServiceAccountKey()
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusCreated)
		_, _ = w.Write(key)
	})
	mux.HandleFunc("GET "+ControlPrefix+"issued", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(s.Issued())
	})
	return mux
}
