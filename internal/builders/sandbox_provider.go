package builders

// SandboxProvider names a sandbox backend (Backend.Name). It marshals as its plain string.
type SandboxProvider string

func (p SandboxProvider) String() string { return string(p) }
