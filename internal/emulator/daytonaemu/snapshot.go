package daytonaemu

import (
	"time"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/emulator/sandboxos"
)

// Snapshot states (sandbox/enums/snapshot-state.enum.ts; the spec adds snapshotting, which only
// sandbox snapshots reach).
const (
	StatePending     = "pending"
	StatePulling     = "pulling"
	StateBuilding    = "building"
	StateActive      = "active"
	StateInactive    = "inactive"
	StateError       = "error"
	StateBuildFailed = "build_failed"
	StateRemoving    = "removing"
)

// Snapshot is one snapshot as the server keeps it (sandbox/entities/snapshot.entity.ts).
type Snapshot struct {
	ID             string
	OrganizationID string
	Name           string
	ImageName      string // "" for a snapshot built from buildInfo
	State          string
	ErrorReason    string
	Entrypoint     []string
	CPU, GPU       float64
	Mem, Disk      float64
	RegionID       string
	BuildInfo      *BuildInfo
	Ref            string
	Size           *float64
	CreatedAt      time.Time
	UpdatedAt      time.Time
	LastUsedAt     *time.Time
	// Removed is set once the snapshot manager deleted the row (handleSnapshotStateRemoving):
	// the API no longer finds it.
	Removed bool

	// next are the states the snapshot manager moves it through, each after pollsPerState reads.
	next  []step
	reads int
	// machine is the root filesystem sandboxes of this snapshot start from; log is its build log.
	machine *sandboxos.Machine
	config  runConfig
	log     []string
}

// BuildInfo is a snapshot's build (sandbox/entities/build-info.entity.ts).
type BuildInfo struct {
	DockerfileContent string    `json:"dockerfileContent"`
	ContextHashes     []string  `json:"contextHashes"`
	SnapshotRef       string    `json:"snapshotRef"`
	CreatedAt         time.Time `json:"createdAt"`
	UpdatedAt         time.Time `json:"updatedAt"`
}

// step is a state the snapshot manager will put a snapshot in, with the error reason of a failure.
type step struct{ state, reason string }

// setState moves sn to state, as snapshot.manager.ts updateSnapshotState does: the update time
// moves, an active snapshot is marked used, an error reason is set when given. Callers hold mu.
func (s *Server) setState(sn *Snapshot, st step) {
	sn.State, sn.UpdatedAt, sn.reads = st.state, s.now(), 0
	if st.state == StateActive {
		t := s.now()
		sn.LastUsedAt = &t
	}
	if st.reason != "" {
		sn.ErrorReason = st.reason
	}
	if st.state == StateRemoving && len(sn.next) == 0 {
		// the manager deletes the row once no runner holds it: a read still sees it removing
		sn.next = []step{{state: StateRemoving}, {state: ""}}
	}
}

// observe is one read of sn: after pollsPerState reads in a transitional state it moves on, as
// the snapshot manager's syncSnapshotState would have meanwhile. Callers hold mu.
func (s *Server) observe(sn *Snapshot) {
	polls := s.opts.pollsPerState()
	if sn.Removed || len(sn.next) == 0 || polls < 0 {
		return
	}
	sn.reads++
	if sn.reads < polls {
		return
	}
	st := sn.next[0]
	sn.next = sn.next[1:]
	if st.state == "" {
		sn.Removed = true
		return
	}
	s.setState(sn, st)
}

// dto is SnapshotDto.fromSnapshot (sandbox/dto/snapshot.dto.ts).
func (sn *Snapshot) dto() map[string]any {
	var buildInfo any
	if sn.BuildInfo != nil {
		buildInfo = sn.BuildInfo
	}
	var imageName any
	if sn.ImageName != "" {
		imageName = sn.ImageName
	}
	var entrypoint any
	if len(sn.Entrypoint) > 0 {
		entrypoint = sn.Entrypoint
	}
	var reason any
	if sn.ErrorReason != "" {
		reason = sn.ErrorReason
	}
	return map[string]any{
		"id": sn.ID, "organizationId": sn.OrganizationID, "general": false, "name": sn.Name,
		"imageName": imageName, "state": sn.State, "size": sn.Size, "entrypoint": entrypoint,
		"cpu": sn.CPU, "gpu": sn.GPU, "mem": sn.Mem, "disk": sn.Disk, "errorReason": reason,
		"createdAt": sn.CreatedAt, "updatedAt": sn.UpdatedAt, "lastUsedAt": sn.LastUsedAt,
		"buildInfo": buildInfo, "regionIds": []string{sn.RegionID}, "ref": sn.Ref,
		"sourceSandboxId": nil, "sandboxClass": "container",
	}
}

// lookup finds a live snapshot of the organization by id or name, as getSnapshotWithRegions
// does (a name first, an id when the string is a UUID). Callers hold mu.
func (s *Server) lookup(idOrName string) *Snapshot {
	for _, sn := range s.snapshots {
		if !sn.Removed && (sn.Name == idOrName || (isUUID(idOrName) && sn.ID == idOrName)) {
			return sn
		}
	}
	return nil
}

// byName is the organization's live snapshot named name, or nil. Callers hold mu.
func (s *Server) byName(name string) *Snapshot {
	for _, sn := range s.snapshots {
		if !sn.Removed && sn.Name == name {
			return sn
		}
	}
	return nil
}

// guarded finds the snapshot of a route behind SnapshotAccessGuard (guards/snapshot-access.guard.ts):
// by id, else by name (a 404 naming the name), so a name reaches the route's own checks (a
// ParseUUIDPipe's 400). Callers hold mu.
func (s *Server) guarded(idOrName string) (*Snapshot, *httpError) {
	for _, sn := range s.snapshots {
		if !sn.Removed && isUUID(idOrName) && sn.ID == idOrName {
			return sn, nil
		}
	}
	if sn := s.byName(idOrName); sn != nil {
		return sn, nil
	}
	return nil, notFound("Snapshot with name " + idOrName + " not found") // getSnapshotByName
}
