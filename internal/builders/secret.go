package builders

import (
	"fmt"
	"log/slog"
)

// Redacted is what every formatting of a Secret prints.
const Redacted = "[REDACTED]"

// Secret holds a credential. Every way of printing it (String, any fmt verb, GoString, JSON, slog)
// shows Redacted; only Reveal, called at the API boundary, returns the value.
//
// The value sits behind a pointer so that even reflection-based printing of a struct that holds a
// Secret in an unexported field shows an address, never the text.
type Secret struct{ value *string }

// NewSecret wraps a credential value.
func NewSecret(value string) Secret { return Secret{value: &value} }

// Reveal returns the credential. Call it only where the value leaves for the backend.
func (s Secret) Reveal() string {
	if s.value == nil {
		return ""
	}
	return *s.value
}

// IsEmpty tells whether no value (or an empty one) is held.
func (s Secret) IsEmpty() bool { return s.Reveal() == "" }

func (s Secret) String() string   { return Redacted }
func (s Secret) GoString() string { return Redacted }

// Format covers every fmt verb (%v %+v %#v %s %q %x ...).
func (s Secret) Format(f fmt.State, _ rune) { _, _ = f.Write([]byte(Redacted)) }

func (s Secret) MarshalJSON() ([]byte, error) { return []byte(`"` + Redacted + `"`), nil }
func (s Secret) MarshalText() ([]byte, error) { return []byte(Redacted), nil }
func (s Secret) LogValue() slog.Value         { return slog.StringValue(Redacted) }
