package opensandboxemu

import (
	"bytes"
	"encoding/json"
)

// createSandboxRequest is CreateSandboxRequest, with the fields the emulator checks.
type createSandboxRequest struct {
	Image          *imageRequest     `json:"image"`
	SnapshotID     *string           `json:"snapshotId"`
	Entrypoint     []string          `json:"entrypoint"`
	ResourceLimits map[string]string `json:"resourceLimits"`
	Env            map[string]string `json:"env"`
	Metadata       map[string]string `json:"metadata"`
	Timeout        *int              `json:"timeout"`
}

type imageRequest struct {
	URI  string     `json:"uri"`
	Auth *ImageAuth `json:"auth"`
}

// decodeCreateSandbox parses and validates the body like the server's pydantic model
// (schema.py validate_source_and_entrypoint) and returns FastAPI-style issues.
func decodeCreateSandbox(body []byte) (createSandboxRequest, []validationIssue) {
	var req createSandboxRequest
	var raw map[string]any
	if err := json.Unmarshal(body, &raw); err != nil {
		return req, []validationIssue{{Type: "json_invalid", Loc: []any{"body"}, Msg: "JSON decode error", Input: string(body)}}
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	if err := dec.Decode(&req); err != nil {
		return req, []validationIssue{{Type: "type_error", Loc: []any{"body"}, Msg: "Input should be a valid request: " + err.Error(), Input: raw}}
	}
	var issues []validationIssue
	add := func(typ, msg string, input any, loc ...any) {
		issues = append(issues, validationIssue{Type: typ, Loc: append([]any{"body"}, loc...), Msg: msg, Input: input})
	}
	issues = append(issues, extraKeys(raw["image"], []string{"uri", "auth"}, "image")...)
	if img, ok := raw["image"].(map[string]any); ok {
		issues = append(issues, extraKeys(img["auth"], []string{"username", "password"}, "image", "auth")...)
	}
	if (req.Image == nil) == (req.SnapshotID == nil) {
		add("value_error", "Value error, exactly one of image or snapshotId must be provided", raw)
	}
	if req.Image != nil && req.Image.URI == "" {
		add("missing", "Field required", raw["image"], "image", "uri")
	}
	if req.Image != nil && len(req.Entrypoint) == 0 {
		add("value_error", "Value error, entrypoint is required when image is provided", raw, "entrypoint")
	}
	if req.ResourceLimits == nil {
		add("value_error", "Value error, resourceLimits is required unless extensions.poolRef is set", raw, "resourceLimits")
	}
	if req.Timeout != nil && *req.Timeout < 60 {
		add("greater_than_equal", "Input should be greater than or equal to 60", *req.Timeout, "timeout")
	}
	return req, issues
}

// extraKeys reports keys of an object schema with additionalProperties: false.
func extraKeys(v any, allowed []string, loc ...any) []validationIssue {
	obj, ok := v.(map[string]any)
	if !ok {
		return nil
	}
	var issues []validationIssue
	for key, value := range obj {
		known := false
		for _, a := range allowed {
			known = known || key == a
		}
		if !known {
			issues = append(issues, validationIssue{Type: "extra_forbidden", Loc: append(append([]any{"body"}, loc...), key), Msg: "Extra inputs are not permitted", Input: value})
		}
	}
	return issues
}
