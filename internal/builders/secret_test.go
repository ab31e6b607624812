package builders

import (
	"encoding/json"
	"fmt"
	"log/slog"
	"strings"
	"testing"
)

const secretValue = "s3cr3t-value-that-must-not-leak"

// holder embeds secrets in exported and unexported fields, by value and behind pointers,
// because fmt reaches unexported fields through reflection without calling their methods.
type holder struct {
	Exported   Secret
	unexported Secret
	Ptr        *Secret
	Auth       RegistryAuth
}

func TestSecretNeverPrintsItsValue(t *testing.T) {
	s := NewSecret(secretValue)
	auth := &AWSAuth{AccessKeyID: "AKIDEXAMPLE", SecretAccessKey: NewSecret(secretValue), Region: "us-east-1"}
	h := holder{Exported: s, unexported: s, Ptr: &s, Auth: auth}
	values := map[string]any{"secret": s, "pointer": &s, "holder": h, "holder pointer": &h, "auth": *auth}
	verbs := []string{"%v", "%+v", "%#v", "%s", "%q", "%x", "%X", "%T %v", "%10s", "%-v"}
	for name, value := range values {
		for _, verb := range verbs {
			if out := fmt.Sprintf(verb, value); strings.Contains(out, secretValue) || strings.Contains(out, fmt.Sprintf("%x", secretValue)) {
				t.Errorf("%s formatted with %q leaks the secret: %s", name, verb, out)
			}
		}
		if out := fmt.Sprint(value) + fmt.Sprintln(value); strings.Contains(out, secretValue) {
			t.Errorf("%s via Sprint leaks the secret: %s", name, out)
		}
		out, err := json.Marshal(value)
		if err != nil {
			t.Fatalf("json.Marshal(%s): %v", name, err)
		}
		if strings.Contains(string(out), secretValue) {
			t.Errorf("%s as JSON leaks the secret: %s", name, out)
		}
	}
	if s.String() != Redacted || s.GoString() != Redacted {
		t.Errorf("String/GoString = %q/%q, want %q", s.String(), s.GoString(), Redacted)
	}
}

func TestSecretInSlog(t *testing.T) {
	var buf strings.Builder
	logger := slog.New(slog.NewJSONHandler(&buf, nil))
	logger.Info("login", "password", NewSecret(secretValue))
	slog.New(slog.NewTextHandler(&buf, nil)).Info("login", "password", NewSecret(secretValue))
	if strings.Contains(buf.String(), secretValue) || !strings.Contains(buf.String(), Redacted) {
		t.Errorf("slog output must show only the redaction: %s", buf.String())
	}
}

func TestSecretReveal(t *testing.T) {
	if got := NewSecret(secretValue).Reveal(); got != secretValue {
		t.Errorf("Reveal() = %q, want the value", got)
	}
	var zero Secret
	if zero.Reveal() != "" || !zero.IsEmpty() || !NewSecret("").IsEmpty() || NewSecret("x").IsEmpty() {
		t.Error("zero and empty secrets must be empty, a set one must not")
	}
}
