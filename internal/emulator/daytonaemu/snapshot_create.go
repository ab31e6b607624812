package daytonaemu

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// createSnapshotRequest is CreateSnapshotDto (sandbox/dto/create-snapshot.dto.ts).
type createSnapshotRequest struct {
	Name         string    `json:"name"`
	ImageName    string    `json:"imageName"`
	Entrypoint   []string  `json:"entrypoint"`
	CPU          *float64  `json:"cpu"`
	GPU          *float64  `json:"gpu"`
	Memory       *float64  `json:"memory"`
	Disk         *float64  `json:"disk"`
	GPUType      any       `json:"gpuType"`
	BuildInfo    *buildReq `json:"buildInfo"`
	RegionID     string    `json:"regionId"`
	SandboxClass string    `json:"sandboxClass"`
}

// buildReq is CreateBuildInfoDto (sandbox/dto/create-build-info.dto.ts).
type buildReq struct {
	DockerfileContent string   `json:"dockerfileContent"`
	ContextHashes     []string `json:"contextHashes"`
}

// imageNameRegex is IMAGE_NAME_REGEX of services/snapshot.service.ts, for image and snapshot names.
var imageNameRegex = regexp.MustCompile(`^[a-zA-Z0-9_.\-:]+(/[a-zA-Z0-9_.\-:]+)*(@sha256:[a-f0-9]{64})?$`)

var digestHex = regexp.MustCompile(`^[a-f0-9]{64}$`)

// imageNameProblem is snapshot.service.ts validateImageName.
func imageNameProblem(name string) string {
	if strings.Contains(name, "@sha256:") {
		image, digest, _ := strings.Cut(name, "@sha256:")
		if image == "" || !digestHex.MatchString(digest) {
			return "Invalid digest format. Must be image@sha256:64_hex_characters"
		}
		return ""
	}
	if !strings.Contains(name, ":") || strings.HasSuffix(strings.TrimRight(name, " \t"), ":") {
		return "Image name must include a tag (e.g., ubuntu:22.04) or digest (@sha256:...)"
	}
	if strings.HasSuffix(name, ":latest") {
		return `Images with tag ":latest" are not allowed`
	}
	if !imageNameRegex.MatchString(name) {
		return "Invalid image name format. Must be lowercase, may contain digits, dots, dashes, and single slashes between components"
	}
	return ""
}

// createSnapshot is POST /snapshots: the controller's checks (snapshot.controller.ts
// createSnapshot), then createFromPull or createFromBuildInfo (snapshot.service.ts). It answers
// 200 with the snapshot pending; the pull or build the snapshot manager would run is decided now
// and revealed by the reads that follow (observe).
func (s *Server) createSnapshot(w http.ResponseWriter, r *http.Request) error {
	var raw map[string]any
	if err := json.NewDecoder(r.Body).Decode(&raw); err != nil {
		return badRequest("Unexpected token in JSON body: " + err.Error())
	}
	if problems := snapshotDTOProblems(raw); len(problems) > 0 {
		return badRequest(strings.Join(problems, ", ")) // Nest's ValidationPipe, before the controller
	}
	body, _ := json.Marshal(raw)
	var req createSnapshotRequest
	_ = json.Unmarshal(body, &req)
	switch {
	case req.BuildInfo != nil && req.ImageName != "":
		return badRequest("Cannot specify an image name when using a build info entry")
	case req.BuildInfo != nil && req.Entrypoint != nil:
		return badRequest("Cannot specify an entrypoint when using a build info entry")
	case req.BuildInfo == nil && req.ImageName == "":
		return badRequest("Must specify an image name when not using a build info entry")
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	region, err := s.region(req.RegionID)
	if err != nil {
		return err
	}
	if !imageNameRegex.MatchString(req.Name) { // validateSnapshotName
		return badRequest("Invalid snapshot name format. May contain letters, digits, dots, colons, and dashes")
	}
	if req.BuildInfo == nil {
		if msg := imageNameProblem(req.ImageName); msg != "" {
			return badRequest(msg)
		}
	}
	if req.SandboxClass == "windows" {
		return badRequest("Windows snapshots cannot be created via this endpoint; they are produced by snapshot-from-sandbox flows.")
	}
	if err := s.quotaProblem(req); err != nil {
		return err
	}
	if s.byName(req.Name) != nil { // the unique (organizationId, name) constraint of snapshot.entity.ts
		return conflict(fmt.Sprintf("Snapshot with name %q already exists for this organization", req.Name))
	}
	now := s.now()
	sn := &Snapshot{ID: newUUID(), OrganizationID: s.opts.organizationID(), Name: req.Name, ImageName: req.ImageName,
		State: StatePending, Entrypoint: nonEmpty(req.Entrypoint), RegionID: region, CreatedAt: now, UpdatedAt: now,
		CPU: orDefault(req.CPU, 1), GPU: orDefault(req.GPU, 0), Mem: orDefault(req.Memory, 1), Disk: orDefault(req.Disk, 3)}
	if req.BuildInfo == nil {
		s.preparePull(sn)
	} else {
		s.prepareBuild(sn, req.BuildInfo)
	}
	s.snapshots = append(s.snapshots, sn)
	writeJSON(w, http.StatusOK, sn.dto())
	return nil
}

// region is getValidatedOrDefaultRegion: the organization's default region when none is asked
// for, 404 for one it cannot use. Callers hold mu.
func (s *Server) region(id string) (string, error) {
	regions := s.opts.regions()
	id = strings.TrimSpace(id)
	if id == "" {
		return regions[0], nil
	}
	if !slices.Contains(regions, id) {
		return "", notFound("Region not found")
	}
	return id, nil
}

// perSandboxLimitMessage is PER_SANDBOX_LIMIT_MESSAGE (common/constants/error-messages.ts).
const perSandboxLimitMessage = "Need higher resource limits per-sandbox? Contact us at support@daytona.io and let us know about your use case."

// quotaProblem is validateOrganizationQuotas (snapshot.service.ts): per-sandbox limits, the GPU
// quota of the region (the emulated regions have none), and the organization's snapshot quota.
// Callers hold mu.
func (s *Server) quotaProblem(req createSnapshotRequest) error {
	num := func(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }
	switch {
	case req.CPU != nil && *req.CPU > maxCPUPerSandbox:
		return badRequest(fmt.Sprintf("CPU request %s exceeds maximum allowed per sandbox (%d).\n%s", num(*req.CPU), maxCPUPerSandbox, perSandboxLimitMessage))
	case req.Memory != nil && *req.Memory > maxMemoryPerSandbox:
		return badRequest(fmt.Sprintf("Memory request %sGB exceeds maximum allowed per sandbox (%dGB).\n%s", num(*req.Memory), maxMemoryPerSandbox, perSandboxLimitMessage))
	case req.Disk != nil && *req.Disk > maxDiskPerSandbox:
		return badRequest(fmt.Sprintf("Disk request %sGB exceeds maximum allowed per sandbox (%dGB).\n%s", num(*req.Disk), maxDiskPerSandbox, perSandboxLimitMessage))
	case req.GPU != nil && *req.GPU > 0:
		return badRequest("GPU quota exceeded. Maximum allowed: 0.")
	}
	used := 0
	for _, sn := range s.snapshots {
		if !sn.Removed && !slices.Contains([]string{StateInactive, StateError, StateBuildFailed, StateRemoving}, sn.State) {
			used++
		}
	}
	if used+1 > snapshotQuota {
		return badRequest(fmt.Sprintf("Snapshot quota exceeded. Maximum allowed: %d", snapshotQuota))
	}
	return nil
}

// snapshotDTOProblems are class-validator's messages for CreateSnapshotDto, in its field order.
func snapshotDTOProblems(raw map[string]any) []string {
	var problems []string
	str := func(field string, required bool) {
		v, present := raw[field]
		if _, ok := v.(string); (present || required) && !ok {
			problems = append(problems, field+" must be a string")
		}
	}
	number := func(field string, limit float64) {
		v, present := raw[field]
		if !present || v == nil {
			return
		}
		n, ok := v.(float64)
		switch {
		case !ok:
			problems = append(problems, field+" must be a number conforming to the specified constraints")
		case n < 0:
			problems = append(problems, field+" must not be less than 0")
		case limit >= 0 && n > limit:
			problems = append(problems, fmt.Sprintf("%s must not be greater than %s", field, strconv.FormatFloat(limit, 'f', -1, 64)))
		}
	}
	str("name", true)
	str("imageName", false)
	if v, present := raw["entrypoint"]; present && v != nil {
		list, ok := v.([]any)
		if !ok {
			problems = append(problems, "entrypoint must be an array")
		}
		for _, e := range list {
			if _, isString := e.(string); !isString {
				problems = append(problems, "each value in entrypoint must be a string")
				break
			}
		}
	}
	number("cpu", -1)
	number("gpu", 1)
	number("memory", -1)
	number("disk", -1)
	if v, present := raw["buildInfo"]; present && v != nil {
		if _, ok := v.(map[string]any); !ok {
			problems = append(problems, "buildInfo must be an object")
		}
	}
	str("regionId", false)
	if v, present := raw["sandboxClass"]; present && v != nil && !slices.Contains([]any{"linux-vm", "container", "android", "windows"}, v) {
		problems = append(problems, "sandboxClass must be one of the following values: linux-vm, container, android, windows")
	}
	return problems
}

// nonEmpty is processEntrypoint: the entrypoint without empty strings, nil when nothing is left.
func nonEmpty(entrypoint []string) []string {
	var out []string
	for _, e := range entrypoint {
		if strings.TrimSpace(e) != "" {
			out = append(out, e)
		}
	}
	return out
}

func orDefault(v *float64, def float64) float64 {
	if v == nil {
		return def
	}
	return *v
}

// internalRegistry is the region's internal registry the snapshots are pushed to (snapshot.ref).
const internalRegistry = "registry.daytona.internal/daytona"

// buildSnapshotRef is generateBuildInfoHash (sandbox/entities/build-info.entity.ts).
func buildSnapshotRef(dockerfile string, contextHashes []string) string {
	sorted := slices.Clone(contextHashes)
	slices.Sort(sorted)
	sum := sha256.Sum256([]byte(dockerfile + strings.Join(sorted, "")))
	return "daytona-" + hex.EncodeToString(sum[:]) + ":daytona"
}
