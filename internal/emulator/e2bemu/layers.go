package e2bemu

import (
	"crypto/sha256"
	"fmt"
	"strconv"
	"strings"
)

// A build runs in layers (orchestrator/pkg/template/build/phases): base (the image, or the base
// template's build), the default user (phases/user), one layer per step (phases/steps), then
// finalize. Each layer is keyed by a hash of its parent's key and its own inputs; a layer whose key
// is in the team's cache (the cache scope is the team: api template-manager/create_template.go) is
// not built again and its log line starts with CACHED (phases/phase.go layerInfo). force on the
// build or on a step rebuilds that step and every one after it (builder.go forceSteps).

const (
	indexVersion     = "1"        // cache.Index version, the first key of a base layer (emulated)
	provisionVersion = "emulator" // phases/base/hash.go: the provision script's version (emulated)
	baseDiskSizeMB   = "5120"     // the template's disk size, a key of the base layer
	defaultUserName  = "user"     // config.TemplateDefaultUser: the user layer's user
)

// hashKeys is storage/cache/cache.go HashKeys: sha256 of base, then ";"+key for each key.
func hashKeys(base string, keys ...string) string {
	h := sha256.New()
	h.Write([]byte(base))
	for _, k := range keys {
		h.Write([]byte(";" + k))
	}
	return fmt.Sprintf("%x", h.Sum(nil))
}

// LayerInfo is one layer of a build: where it sits, what it runs, its cache key, and whether it
// came from the cache instead of being built.
type LayerInfo struct {
	Step   string `json:"step"` // "base", a step number, "finalize"
	Text   string `json:"text"` // "FROM python:3.12", "RUN pip install numpy"
	Hash   string `json:"hash"`
	Cached bool   `json:"cached"`
}

// logLine is layerInfo in phases/phase.go: "CACHED [builder 1/3] RUN ... [hash]".
func (l LayerInfo) logLine(prefix string) string {
	cached := ""
	if l.Cached {
		cached = "CACHED "
	}
	return fmt.Sprintf("%s[%s] %s [%s]", cached, prefix, l.Text, l.Hash)
}

// baseLayer is phases/base: its key (hash.go) and whether it is cached (builder.go Layer): a base
// template's build always is; an image's is unless the build is forced.
func (s *Server) baseLayer(req TemplateBuildStartV2, base baseTemplate) LayerInfo {
	if req.FromTemplate != nil {
		return LayerInfo{Step: "base", Text: "FROM TEMPLATE " + *req.FromTemplate,
			Hash: hashKeys(indexVersion, provisionVersion, baseDiskSizeMB, "template:"+base.buildID), Cached: true}
	}
	l := LayerInfo{Step: "base", Text: "FROM " + deref(req.FromImage)}
	l.Hash = hashKeys(indexVersion, provisionVersion, baseDiskSizeMB, l.Text[len("FROM "):])
	l.Cached = !deref(req.Force) && s.layers[l.Hash]
	return l
}

// userLayer is phases/user: the default user, keyed on the base (hash.go), forced with the build.
func (s *Server) userLayer(req TemplateBuildStartV2, base LayerInfo) LayerInfo {
	l := LayerInfo{Step: "base", Text: "DEFAULT USER " + defaultUserName, Hash: hashKeys(base.Hash, "DEFAULT USER", defaultUserName)}
	l.Cached = !deref(req.Force) && s.layers[l.Hash]
	return l
}

// stepLayer is phases/steps/hash.go: the parent's key, the step's type, its args joined by spaces,
// and its filesHash ("<nil>" when absent, utils.Sprintp); forced steps are never taken from the cache.
func (s *Server) stepLayer(n int, step TemplateStep, parent string, forced bool) LayerInfo {
	filesHash := "<nil>"
	if step.FilesHash != nil {
		filesHash = *step.FilesHash
	}
	l := LayerInfo{Step: strconv.Itoa(n), Text: strings.ToUpper(step.Type) + " " + strings.Join(step.Args, " "),
		Hash: hashKeys(parent, step.Type, strings.Join(step.Args, " "), filesHash)}
	l.Cached = !forced && s.layers[l.Hash]
	return l
}

// forcedSteps is builder.go forceSteps: from the build's force, or the first forced step, on.
func forcedSteps(req TemplateBuildStartV2) []bool {
	forced := make([]bool, len(req.Steps))
	on := deref(req.Force)
	for i, step := range req.Steps {
		on = on || step.Force
		forced[i] = on
	}
	return forced
}
