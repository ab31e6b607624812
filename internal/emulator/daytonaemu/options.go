package daytonaemu

import (
	"net/http"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/emulator/sandboxos"
)

// Options configure a Server. The zero value accepts any API key and behaves like Daytona's cloud
// for an organization on the default tier.
type Options struct {
	// APIKey, when set, is the only Bearer token accepted (401 "Invalid credentials" otherwise, as
	// auth/global-auth.guard.ts answers).
	APIKey string
	// OrganizationID is the organization the key belongs to (a fixed UUID when empty).
	OrganizationID string
	// Regions are the regions the organization may use, the first its default region
	// (organization.defaultRegionId); empty means "us" and "eu", Daytona's shared regions.
	Regions []string
	// PollsPerState is how many reads (GET, list) a snapshot stays in each transitional state
	// (pending, pulling, building, removing) before it moves on, as the server's snapshot manager
	// moves it in the background. Zero means 1; negative keeps it in pending forever.
	PollsPerState int
	// Images declares what images hold (sandboxos.Declaration), by reference: what the emulator
	// cannot know, such as a private registry's image.
	Images map[string]sandboxos.Declaration
	// PrivateImages maps an image reference (or a repository, registry/name without tag) to the
	// only credentials that pull it: a snapshot of it fails to pull unless an organization
	// registry entry matches its registry with these credentials.
	PrivateImages map[string]Credential
	// OnRequest, when set, sees every request before it is handled.
	OnRequest func(r *http.Request)
}

// Credential is a registry login.
type Credential struct {
	Username string `json:"username"`
	Password string `json:"password"`
}

// defaultOrganizationID is the organization of the zero Options.
const defaultOrganizationID = "7c7b1f3e-4a3b-4c1d-9e2f-0a1b2c3d4e5f"

func (o Options) organizationID() string {
	if o.OrganizationID == "" {
		return defaultOrganizationID
	}
	return o.OrganizationID
}

func (o Options) regions() []string {
	if len(o.Regions) == 0 {
		return []string{"us", "eu"}
	}
	return o.Regions
}

func (o Options) pollsPerState() int {
	if o.PollsPerState == 0 {
		return 1
	}
	return o.PollsPerState
}

// The organization's limits, at the defaults of organization/entities/organization.entity.ts.
const (
	maxCPUPerSandbox    = 4  // max_cpu_per_sandbox
	maxMemoryPerSandbox = 8  // max_memory_per_sandbox, GB
	maxDiskPerSandbox   = 10 // max_disk_per_sandbox, GB
	snapshotQuota       = 30 // snapshot_quota
)
