package builders

import (
	"fmt"
	"strconv"
)

// Setting is one provider-block setting, read by a backend (or shared, like ECR's endpoint).
type Setting struct {
	// Path is the block path and attribute, dot-separated: "e2b.api_key", "aws.endpoints.ecr".
	Path        string
	Description string
	// Env is the environment variable it falls back to ("" when none). The provider reads it once,
	// when it is configured (Fallback), so nothing below it reads the environment.
	Env string
	// SDKEnv: the vendor's SDK reads Env itself, as one source among others (the AWS default
	// chain: profiles, AWS_ENDPOINT_URL, ...); the provider leaves the fallback to it.
	SDKEnv bool
	// EnvValue reads the fallback when it takes more than Env's value (nil: Env's value).
	EnvValue  func(getenv func(string) string) string
	Sensitive bool
	// Int: an integer setting (else a string), at least Min.
	Int bool
	Min int64
}

// Fallback is the setting's value from the environment getenv reads, "" when it has none there
// (or the SDK reads it: SDKEnv).
func (s Setting) Fallback(getenv func(string) string) string {
	switch {
	case s.Env == "" || s.SDKEnv:
		return ""
	case s.EnvValue != nil:
		return s.EnvValue(getenv)
	}
	return getenv(s.Env)
}

// SettingBlock describes a provider block settings sit in ("e2b", "aws.endpoints").
type SettingBlock struct {
	Path        string
	Description string
}

// Settings are the values the provider block sets, by Setting.Path, or else their environment
// fallbacks. Unset settings are absent; Unknown holds those whose value Terraform will know only
// at apply.
type Settings struct {
	Values  map[string]string
	Unknown map[string]bool
}

// String is the value of a setting, "" when unset.
func (s Settings) String(path string) string { return s.Values[path] }

// Int is the value of an integer setting, 0 when unset.
func (s Settings) Int(path string) int {
	n, _ := strconv.Atoi(s.Values[path]) // the provider writes integers it read as such
	return n
}

// MissingSettingError is a backend's Open error when a setting it cannot work without is unset,
// in the provider block and in its environment variable.
type MissingSettingError struct {
	Backend SandboxProvider
	Setting Setting
	// Later: the provider block sets it from a value known only at apply, so at plan time it is
	// missing only for now.
	Later bool
}

// MissingSetting is the MissingSettingError of setting s on backend b, given the settings.
func MissingSetting(b SandboxProvider, s Setting, settings Settings) *MissingSettingError {
	return &MissingSettingError{Backend: b, Setting: s, Later: settings.Unknown[s.Path]}
}

func (e *MissingSettingError) Error() string {
	return fmt.Sprintf("the %s backend is used but not configured: set %s in the provider block or the %s environment variable",
		e.Backend, e.Setting.Path, e.Setting.Env)
}
