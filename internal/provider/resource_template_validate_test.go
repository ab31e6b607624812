package provider

import (
	"context"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders"
)

// configOf builds a resource configuration with the given top-level values and every other
// attribute null, as Terraform would send it.
func configOf(t *testing.T, values map[string]tftypes.Value) tfsdk.Config {
	t.Helper()
	return configWith(t, templateResourceSchema(context.Background()), values)
}

// configWith is configOf for any resource schema.
func configWith(t *testing.T, s schema.Schema, values map[string]tftypes.Value) tfsdk.Config {
	t.Helper()
	return tfsdk.Config{Schema: s, Raw: objectOf(t, s.Type().TerraformType(context.Background()), values)}
}

// objectOf is an object of type typ with the given attribute values and every other one null.
func objectOf(t *testing.T, typ tftypes.Type, values map[string]tftypes.Value) tftypes.Value {
	t.Helper()
	objType, ok := typ.(tftypes.Object)
	if !ok {
		t.Fatalf("%s is not an object type", typ)
	}
	all := map[string]tftypes.Value{}
	for name, typ := range objType.AttributeTypes {
		all[name] = tftypes.NewValue(typ, nil)
	}
	for name, v := range values {
		all[name] = v
	}
	return tftypes.NewValue(objType, all)
}

func str(s string) tftypes.Value { return tftypes.NewValue(tftypes.String, s) }

func TestValidateConfigWarnings(t *testing.T) {
	tests := []struct {
		name    string
		values  map[string]tftypes.Value
		want    []string // warning details, by substring, in order
		wantErr bool
	}{
		{"opensandbox ignores E2B-only sizing, not ready_cmd", map[string]tftypes.Value{
			"backend": str("opensandbox"), "template_id": str("py"), "image": str("python:3.12"),
			"ready_cmd": str("true"), "cpu_count": tftypes.NewValue(tftypes.Number, 4),
			"min_free_disk_mb": tftypes.NewValue(tftypes.Number, 0),
		}, []string{"cpu_count is ignored", "min_free_disk_mb is ignored"}, false},
		{"bedrock ignores images", map[string]tftypes.Value{
			"backend": str("bedrock"), "template_id": str("aws.codeinterpreter.v1"), "image": str("python:3.12"),
		}, []string{"image is ignored"}, false},
		{"e2b uses everything", map[string]tftypes.Value{
			"backend": str("e2b"), "template_id": str("py"), "image": str("python:3.12"), "ready_cmd": str("true"),
		}, nil, false},
		{"template_id checked against the backend", map[string]tftypes.Value{
			"backend": str("bedrock"), "template_id": str("py"),
		}, nil, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req := resource.ValidateConfigRequest{Config: configOf(t, tt.values)}
			var resp resource.ValidateConfigResponse
			(&templateResource{}).ValidateConfig(context.Background(), req, &resp)
			if resp.Diagnostics.HasError() != tt.wantErr {
				t.Fatalf("errors = %v, want error: %v", resp.Diagnostics.Errors(), tt.wantErr)
			}
			warnings := resp.Diagnostics.Warnings()
			if len(warnings) != len(tt.want) {
				t.Fatalf("warnings = %v, want %d", warnings, len(tt.want))
			}
			for i, w := range warnings {
				if !strings.Contains(w.Detail(), tt.want[i]) {
					t.Errorf("warning %d = %q, want it to contain %q", i, w.Detail(), tt.want[i])
				}
			}
		})
	}
}

func TestLogTailIsBounded(t *testing.T) {
	var logs []string
	for i := range maxLogLines + 10 {
		logs = append(logs, strings.Repeat("é", maxLogLineLen)+string(rune('a'+i%26)))
	}
	got := logTail(logs).Elements()
	if len(got) != maxLogLines {
		t.Fatalf("kept %d lines, want the last %d", len(got), maxLogLines)
	}
	for _, v := range got {
		line := v.String()
		if !utf8.ValidString(line) || len(line) > maxLogLineLen+len(`""…`)+2 {
			t.Fatalf("line not bounded or not valid UTF-8: %d bytes", len(line))
		}
	}
}

func TestOnlyAFailedBuildKeepsItsLog(t *testing.T) {
	logs := []string{"step 1", "step 2"}
	for status, want := range map[builders.TemplateBuildStatus]int{
		builders.StatusFailed: 2, builders.StatusSuccess: 0, builders.StatusSkipped: 0, builders.StatusUnsupported: 0,
	} {
		var m templateModel
		m.setResult(builders.TemplateBuildResult{Status: status, Logs: logs}, time.Now())
		if got := len(m.Logs.Elements()); got != want || m.Logs.IsNull() {
			t.Errorf("%s: %d log lines in state (null: %v), want %d", status, got, m.Logs.IsNull(), want)
		}
	}
}

// TestValidateConfigWaitsForUnknownValues: a rule that reads a value known only at apply is not
// applied at plan (it is checked again at apply), while rules on known values still are.
func TestValidateConfigWaitsForUnknownValues(t *testing.T) {
	unknown := tftypes.NewValue(tftypes.String, tftypes.UnknownValue)
	tests := []struct {
		name   string
		values map[string]tftypes.Value
		want   []string // error summaries, in order
	}{
		{"image known later", map[string]tftypes.Value{"backend": str("e2b"), "template_id": str("py"), "image": unknown}, nil},
		{"template_id known later", map[string]tftypes.Value{"backend": str("e2b"), "template_id": unknown, "image": str("python")}, nil},
		{"a package known later, another bad", map[string]tftypes.Value{"backend": str("e2b"), "template_id": str("py"), "image": str("python"),
			"packages": tftypes.NewValue(tftypes.List{ElementType: tftypes.String}, []tftypes.Value{unknown, str("--index-url=x")})},
			[]string{"Invalid packages[1]"}},
		{"packages known later", map[string]tftypes.Value{"backend": str("e2b"), "template_id": str("py"), "image": str("python"),
			"packages": tftypes.NewValue(tftypes.List{ElementType: tftypes.String}, tftypes.UnknownValue)}, nil},
		{"known problems still reported", map[string]tftypes.Value{"backend": str("e2b"), "template_id": unknown, "image": str("Bad Image")},
			[]string{"Invalid image"}},
		{"no source at all", map[string]tftypes.Value{"backend": str("opensandbox"), "template_id": str("py")}, []string{"Invalid image"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var resp resource.ValidateConfigResponse
			(&templateResource{}).ValidateConfig(context.Background(), resource.ValidateConfigRequest{Config: configOf(t, tt.values)}, &resp)
			var got []string
			for _, d := range resp.Diagnostics.Errors() {
				got = append(got, d.Summary())
			}
			if strings.Join(got, "|") != strings.Join(tt.want, "|") {
				t.Errorf("errors = %q, want %q (%v)", got, tt.want, resp.Diagnostics)
			}
		})
	}
}
