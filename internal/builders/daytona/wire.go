package daytona

import "time"

// Snapshot states (SnapshotState in openapi-specs/api.json; snapshot-state.enum.ts).
const (
	statePending      = "pending"
	statePulling      = "pulling"
	stateBuilding     = "building"
	stateSnapshotting = "snapshotting"
	stateActive       = "active"
	stateInactive     = "inactive"
	stateError        = "error"
	stateBuildFailed  = "build_failed"
	stateRemoving     = "removing"
)

// snapshot is the SnapshotDto fields the builder reads.
type snapshot struct {
	ID          string     `json:"id"`
	Name        string     `json:"name"`
	General     bool       `json:"general"`
	ImageName   string     `json:"imageName"`
	State       string     `json:"state"`
	ErrorReason *string    `json:"errorReason"`
	CreatedAt   time.Time  `json:"createdAt"`
	UpdatedAt   time.Time  `json:"updatedAt"`
	BuildInfo   *buildInfo `json:"buildInfo"`
}

type buildInfo struct {
	DockerfileContent string   `json:"dockerfileContent"`
	ContextHashes     []string `json:"contextHashes,omitempty"`
}

func (s snapshot) failed() bool { return s.State == stateError || s.State == stateBuildFailed }

// inProgress: the snapshot will become active (or fail) without anyone asking.
func (s snapshot) inProgress() bool {
	switch s.State {
	case statePending, statePulling, stateBuilding, stateSnapshotting:
		return true
	}
	return false
}

func (s snapshot) reason() string {
	if s.ErrorReason == nil {
		return ""
	}
	return *s.ErrorReason
}

// createSnapshot is CreateSnapshot: exactly one of ImageName and BuildInfo; Entrypoint only with
// ImageName (snapshot.controller.ts createSnapshot). Memory and Disk are GB.
type createSnapshot struct {
	Name       string     `json:"name"`
	ImageName  string     `json:"imageName,omitempty"`
	Entrypoint []string   `json:"entrypoint,omitempty"`
	BuildInfo  *buildInfo `json:"buildInfo,omitempty"`
	CPU        int        `json:"cpu,omitempty"`
	Memory     int        `json:"memory,omitempty"`
	Disk       int        `json:"disk,omitempty"` // GB; unset: the server's default
	GPU        int        `json:"gpu,omitempty"`
	RegionID   string     `json:"regionId,omitempty"`
}

// snapshotPage is PaginatedSnapshots.
type snapshotPage struct {
	Items      []snapshot `json:"items"`
	Total      int        `json:"total"`
	Page       int        `json:"page"`
	TotalPages int        `json:"totalPages"`
}

// registry is DockerRegistry; createRegistry is CreateDockerRegistry and, without Project,
// UpdateDockerRegistry.
type registry struct {
	ID           string `json:"id"`
	Name         string `json:"name"`
	URL          string `json:"url"`
	RegistryType string `json:"registryType"`
}

type createRegistry struct {
	Name     string `json:"name"`
	URL      string `json:"url"`
	Username string `json:"username"`
	Password string `json:"password"`
}

// createSandbox is the CreateSandbox fields a check sets; sandbox the Sandbox fields it reads.
type createSandbox struct {
	Snapshot         string            `json:"snapshot"`
	User             string            `json:"user,omitempty"`
	Env              map[string]string `json:"env"`
	Labels           map[string]string `json:"labels,omitempty"`
	Target           string            `json:"target,omitempty"`
	AutoStopInterval *int              `json:"autoStopInterval,omitempty"`
	TTLMinutes       int               `json:"ttlMinutes,omitempty"`
}

type sandbox struct {
	ID              string `json:"id"`
	State           string `json:"state"`
	ErrorReason     string `json:"errorReason"`
	ToolboxProxyURL string `json:"toolboxProxyUrl"`
}

// executeRequest and executeResponse are the toolbox's /process/execute (toolbox.json).
type executeRequest struct {
	Command string            `json:"command"`
	Cwd     string            `json:"cwd,omitempty"`
	Envs    map[string]string `json:"envs,omitempty"`
	Timeout int               `json:"timeout,omitempty"`
}

type executeResponse struct {
	ExitCode *int   `json:"exitCode"`
	Code     *int   `json:"code"` // older daemons
	Result   string `json:"result"`
}
