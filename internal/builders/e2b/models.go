package e2b

import (
	"encoding/json"
	"time"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders"
)

// Wire types, named as in the spec's components.schemas; only the fields this package uses.

// templateBuildRequestV3 registers a template (or a new build of it).
type templateBuildRequestV3 struct {
	Name     string   `json:"name"`
	Tags     []string `json:"tags,omitempty"`
	CPUCount int      `json:"cpuCount"`
	MemoryMB int      `json:"memoryMB"`
	// MinFreeDiskMB is sent by the SDKs from 2.51 (BuildOptions.minFreeDiskMb); nil: the team's default.
	MinFreeDiskMB *int `json:"minFreeDiskMb,omitempty"`
}

type templateRequestResponseV3 struct {
	TemplateID string   `json:"templateID"`
	BuildID    string   `json:"buildID"`
	Names      []string `json:"names"`
	Tags       []string `json:"tags"`
}

// templateBuildStartV2 starts a build: exactly one of FromImage or FromTemplate.
type templateBuildStartV2 struct {
	FromImage         string             `json:"fromImage,omitempty"`
	FromTemplate      string             `json:"fromTemplate,omitempty"`
	FromImageRegistry *fromImageRegistry `json:"fromImageRegistry,omitempty"`
	Force             bool               `json:"force"`
	Steps             []templateStep     `json:"steps"`
	StartCmd          string             `json:"startCmd,omitempty"`
	ReadyCmd          string             `json:"readyCmd,omitempty"`
}

// fromImageRegistry is the oneOf GeneralRegistry | AWSRegistry | GCPRegistry, keyed by Type.
// Secret values stay builders.Secret until MarshalJSON writes the request body.
type fromImageRegistry struct {
	Type               string
	Username           string
	Password           builders.Secret
	AWSAccessKeyID     string
	AWSSecretAccessKey builders.Secret
	AWSRegion          string
	ServiceAccountJSON builders.Secret
}

func (r fromImageRegistry) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		Type               string `json:"type"`
		Username           string `json:"username,omitempty"`
		Password           string `json:"password,omitempty"`
		AWSAccessKeyID     string `json:"awsAccessKeyId,omitempty"`
		AWSSecretAccessKey string `json:"awsSecretAccessKey,omitempty"`
		AWSRegion          string `json:"awsRegion,omitempty"`
		ServiceAccountJSON string `json:"serviceAccountJson,omitempty"`
	}{r.Type, r.Username, r.Password.Reveal(), r.AWSAccessKeyID, r.AWSSecretAccessKey.Reveal(), r.AWSRegion, r.ServiceAccountJSON.Reveal()})
}

// templateStep is one build step, encoded as the SDKs' Template builder does (type + args).
type templateStep struct {
	Type      string   `json:"type"`
	Args      []string `json:"args"`
	Force     bool     `json:"force"`
	FilesHash string   `json:"filesHash,omitempty"` // COPY: the uploaded files (steps_files.go)
}

// Build states (TemplateBuildStatus).
const (
	buildWaiting  = "waiting"
	buildBuilding = "building"
	buildReady    = "ready"
	buildError    = "error"
)

type templateBuildInfo struct {
	TemplateID string             `json:"templateID"`
	BuildID    string             `json:"buildID"`
	Status     string             `json:"status"`
	LogEntries logEntries         `json:"logEntries"`
	Reason     *buildStatusReason `json:"reason"`
}

type buildLogEntry struct {
	Timestamp time.Time `json:"timestamp"`
	Message   string    `json:"message"`
	Level     string    `json:"level"`
	Step      string    `json:"step"`
}

type buildStatusReason struct {
	Message    string     `json:"message"`
	Step       string     `json:"step"`
	LogEntries logEntries `json:"logEntries"`
}

type templateAliasResponse struct {
	TemplateID string `json:"templateID"`
	Public     bool   `json:"public"`
}

type templateWithBuilds struct {
	TemplateID string          `json:"templateID"`
	Builds     []templateBuild `json:"builds"`
}

type templateBuild struct {
	BuildID   string    `json:"buildID"`
	Status    string    `json:"status"`
	CreatedAt time.Time `json:"createdAt"`
}

type templateTag struct {
	Tag     string `json:"tag"`
	BuildID string `json:"buildID"`
}

type assignTemplateTagsRequest struct {
	Target string   `json:"target"`
	Tags   []string `json:"tags"`
}

type assignedTemplateTags struct {
	Tags    []string `json:"tags"`
	BuildID string   `json:"buildID"`
}

type deleteTemplateTagsRequest struct {
	Name string   `json:"name"`
	Tags []string `json:"tags"`
}
