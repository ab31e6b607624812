package builders

import (
	"encoding/json"
	"fmt"
)

// SandboxProvider names a sandbox backend. It marshals as its plain string.
type SandboxProvider string

const (
	ProviderE2B         SandboxProvider = "e2b"
	ProviderOpenSandbox SandboxProvider = "opensandbox"
	ProviderBedrock     SandboxProvider = "bedrock"
)

// SandboxProviders lists every known backend, in documentation order.
var SandboxProviders = []SandboxProvider{ProviderE2B, ProviderOpenSandbox, ProviderBedrock}

// ParseSandboxProvider accepts exactly one of the known backend names.
func ParseSandboxProvider(s string) (SandboxProvider, error) {
	for _, p := range SandboxProviders {
		if string(p) == s {
			return p, nil
		}
	}
	return "", fmt.Errorf("unknown sandbox provider %q: must be one of %v", s, SandboxProviders)
}

func (p SandboxProvider) String() string { return string(p) }

// UnmarshalJSON rejects names that are not a known backend.
func (p *SandboxProvider) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return err
	}
	parsed, err := ParseSandboxProvider(s)
	if err != nil {
		return err
	}
	*p = parsed
	return nil
}
