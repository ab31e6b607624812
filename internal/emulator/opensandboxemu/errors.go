package opensandboxemu

import (
	"encoding/json"
	"net/http"
)

// writeError writes the server's flattened HTTPException shape, {code, message}.
func writeError(w http.ResponseWriter, status int, code, message string) {
	writeJSON(w, status, map[string]string{"code": code, "message": message})
}

// validationIssue is one entry of FastAPI's 422 body: loc, msg and the offending input, which
// FastAPI echoes back (so a client must never print it).
type validationIssue struct {
	Type  string `json:"type"`
	Loc   []any  `json:"loc"`
	Msg   string `json:"msg"`
	Input any    `json:"input"`
}

// writeValidation writes FastAPI's default request-validation response, 422 {detail: [...]}.
func writeValidation(w http.ResponseWriter, issues []validationIssue) {
	writeJSON(w, http.StatusUnprocessableEntity, map[string]any{"detail": issues})
}

func writeJSON(w http.ResponseWriter, status int, body any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(body)
}
