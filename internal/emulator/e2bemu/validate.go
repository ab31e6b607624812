package e2bemu

import (
	"fmt"
	"strconv"
)

// Request checks the real API makes (its spec's constraints) before touching any state. Each
// returns "" for a valid body, or the message of the 400 answer.

const maxNameLength = 128

func (req templateBuildRequestV3) problem() string {
	switch {
	case req.Name == "" && req.Alias == "":
		return "name is required"
	case len(req.Name) > maxNameLength || len(req.Alias) > maxNameLength:
		return fmt.Sprintf("name must be at most %d characters", maxNameLength)
	case req.CPUCount != nil && *req.CPUCount < 1:
		return "cpuCount must be at least 1"
	case req.MemoryMB != nil && *req.MemoryMB < 128:
		return "memoryMB must be at least 128"
	}
	for _, tag := range req.Tags {
		if tag == "" {
			return "tags must not be empty strings"
		}
	}
	return ""
}

func (req TemplateBuildStartV2) problem() string {
	if reg := req.FromImageRegistry; reg != nil && !validRegistry(reg) {
		return "fromImageRegistry: missing required fields for type " + strconv.Quote(reg.Type)
	}
	for i, step := range req.Steps {
		if step.Type == "" {
			return fmt.Sprintf("steps[%d].type is required", i)
		}
	}
	return ""
}

// validRegistry checks the oneOf branch named by type has its required fields.
func validRegistry(r *FromImageRegistry) bool {
	switch r.Type {
	case "registry":
		return r.Username != "" && r.Password != ""
	case "aws":
		return r.AWSAccessKeyID != "" && r.AWSSecretAccessKey != "" && r.AWSRegion != ""
	case "gcp":
		return r.ServiceAccountJSON != ""
	}
	return false
}

func (req assignTemplateTagsRequest) problem() string {
	if req.Target == "" || req.Tags == nil { // an empty list passes: the handler refuses it in its own words

		return "target and tags are required"
	}
	return ""
}

func (req deleteTemplateTagsRequest) problem() string {
	if req.Name == "" || req.Tags == nil {
		return "name and tags are required"
	}
	return ""
}

// sourceProblem is setTemplateSource's own check (template-manager/create_template.go), made after
// the build was claimed: fromImage counts when present, even empty, fromTemplate only when not empty.
func (req TemplateBuildStartV2) sourceProblem() string {
	hasImage, hasTemplate := req.FromImage != nil, deref(req.FromTemplate) != ""
	switch {
	case hasImage && hasTemplate:
		return "cannot specify both fromImage and fromTemplate"
	case !hasImage && !hasTemplate:
		return "must specify either fromImage or fromTemplate"
	}
	return ""
}
