package e2bemu

import "time"

// Wire types, named as in the spec's components.schemas.

type templateBuildRequestV3 struct {
	Name     string   `json:"name,omitempty"`
	Tags     []string `json:"tags,omitempty"`
	Alias    string   `json:"alias,omitempty"`
	TeamID   string   `json:"teamID,omitempty"`
	CPUCount *int     `json:"cpuCount,omitempty"`
	MemoryMB *int     `json:"memoryMB,omitempty"`
	// MinFreeDiskMb: free disk space after the steps, sent by the SDKs from 2.51 (BuildOptions).
	MinFreeDiskMb *int `json:"minFreeDiskMb,omitempty"`
}

type templateRequestResponseV3 struct {
	TemplateID string   `json:"templateID"`
	BuildID    string   `json:"buildID"`
	Public     bool     `json:"public"`
	Aliases    []string `json:"aliases"`
	Names      []string `json:"names"`
	Tags       []string `json:"tags"`
}

// TemplateBuildStartV2 is the build start body, decoded as received.
type TemplateBuildStartV2 struct {
	FromImage         *string            `json:"fromImage,omitempty"`
	FromTemplate      *string            `json:"fromTemplate,omitempty"`
	FromImageRegistry *FromImageRegistry `json:"fromImageRegistry,omitempty"`
	Force             *bool              `json:"force,omitempty"`
	Steps             []TemplateStep     `json:"steps,omitempty"`
	StartCmd          *string            `json:"startCmd,omitempty"`
	ReadyCmd          *string            `json:"readyCmd,omitempty"`
}

// FromImageRegistry is the oneOf AWSRegistry | GCPRegistry | GeneralRegistry, keyed by Type.
type FromImageRegistry struct {
	Type               string `json:"type"`
	Username           string `json:"username,omitempty"`
	Password           string `json:"password,omitempty"`
	AWSAccessKeyID     string `json:"awsAccessKeyId,omitempty"`
	AWSSecretAccessKey string `json:"awsSecretAccessKey,omitempty"`
	AWSRegion          string `json:"awsRegion,omitempty"`
	ServiceAccountJSON string `json:"serviceAccountJson,omitempty"`
}

// TemplateStep is one build step.
type TemplateStep struct {
	Type      string   `json:"type"`
	Args      []string `json:"args,omitempty"`
	FilesHash *string  `json:"filesHash,omitempty"` // absent and "" differ in a layer's key (layers.go)
	Force     bool     `json:"force,omitempty"`
}

type buildLogEntry struct {
	Timestamp time.Time `json:"timestamp"`
	Message   string    `json:"message"`
	Level     string    `json:"level"`
	Step      string    `json:"step,omitempty"`
}

type buildStatusReason struct {
	Message    string          `json:"message"`
	Step       string          `json:"step,omitempty"`
	LogEntries []buildLogEntry `json:"logEntries"`
}

type templateBuildInfo struct {
	Logs       []string           `json:"logs"`
	LogEntries []buildLogEntry    `json:"logEntries"`
	TemplateID string             `json:"templateID"`
	BuildID    string             `json:"buildID"`
	Status     string             `json:"status"`
	Reason     *buildStatusReason `json:"reason,omitempty"`
}

type templateAliasResponse struct {
	TemplateID string `json:"templateID"`
	Public     bool   `json:"public"`
}

type templateTag struct {
	Tag       string    `json:"tag"`
	BuildID   string    `json:"buildID"`
	CreatedAt time.Time `json:"createdAt"`
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

type templateUpdateRequest struct {
	Public *bool `json:"public,omitempty"`
}

type templateUpdateResponse struct {
	Names []string `json:"names"`
}

type template struct {
	TemplateID    string     `json:"templateID"`
	BuildID       string     `json:"buildID"`
	CPUCount      int        `json:"cpuCount"`
	MemoryMB      int        `json:"memoryMB"`
	DiskSizeMB    int        `json:"diskSizeMB"`
	Public        bool       `json:"public"`
	Aliases       []string   `json:"aliases"`
	Names         []string   `json:"names"`
	CreatedAt     time.Time  `json:"createdAt"`
	UpdatedAt     time.Time  `json:"updatedAt"`
	CreatedBy     *struct{}  `json:"createdBy"`
	LastSpawnedAt *time.Time `json:"lastSpawnedAt"`
	SpawnCount    int64      `json:"spawnCount"`
	BuildCount    int        `json:"buildCount"`
	EnvdVersion   string     `json:"envdVersion"`
	BuildStatus   string     `json:"buildStatus"`
}

type templateBuild struct {
	BuildID    string     `json:"buildID"`
	Status     string     `json:"status"`
	CreatedAt  time.Time  `json:"createdAt"`
	UpdatedAt  time.Time  `json:"updatedAt"`
	FinishedAt *time.Time `json:"finishedAt,omitempty"`
	CPUCount   int        `json:"cpuCount"`
	MemoryMB   int        `json:"memoryMB"`
}

type templateWithBuilds struct {
	TemplateID    string          `json:"templateID"`
	Public        bool            `json:"public"`
	Aliases       []string        `json:"aliases"`
	Names         []string        `json:"names"`
	CreatedAt     time.Time       `json:"createdAt"`
	UpdatedAt     time.Time       `json:"updatedAt"`
	LastSpawnedAt *time.Time      `json:"lastSpawnedAt"`
	SpawnCount    int64           `json:"spawnCount"`
	Builds        []templateBuild `json:"builds"`
}

type templateBuildFileUpload struct {
	Present bool    `json:"present"`
	URL     *string `json:"url,omitempty"`
}

// newSandbox is NewSandbox (and NewSandboxV2): the template reference, the sandbox's environment,
// how long it lives, its metadata and whether envd wants an access token.
type newSandbox struct {
	TemplateID string            `json:"templateID"`
	EnvVars    map[string]string `json:"envVars"` // the sandbox's environment (envd init.go), not the template's ENV
	Timeout    *int32            `json:"timeout"` // seconds; absent: 15 (sandboxtypes.SandboxTimeoutDefault)
	Metadata   map[string]string `json:"metadata"`
	Secure     *bool             `json:"secure"`
}

type createdSandbox struct {
	TemplateID      string  `json:"templateID"`
	SandboxID       string  `json:"sandboxID"`
	Alias           string  `json:"alias,omitempty"`
	ClientID        string  `json:"clientID"`
	EnvdVersion     string  `json:"envdVersion"`
	EnvdAccessToken *string `json:"envdAccessToken,omitempty"` // only for a secure sandbox
	Domain          *string `json:"domain"`
}

type apiError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}
