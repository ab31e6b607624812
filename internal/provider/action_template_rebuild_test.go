package provider

import (
	"context"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/action"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders"
)

// rebuildSchema is the rebuild action's schema.
func rebuildSchema() action.SchemaResponse {
	var resp action.SchemaResponse
	newTemplateRebuildAction().Schema(context.Background(), action.SchemaRequest{}, &resp)
	return resp
}

// actionConfigOf builds the rebuild action's configuration with the given top-level values and
// every other attribute null, as Terraform would send it.
func actionConfigOf(t *testing.T, values map[string]tftypes.Value) tfsdk.Config {
	t.Helper()
	s := rebuildSchema().Schema
	return tfsdk.Config{Schema: s, Raw: objectOf(t, s.Type().TerraformType(context.Background()), values)}
}

// actionAuth is the action's registry_auth with the given kinds set (attribute -> value).
func actionAuth(t *testing.T, kinds map[string]map[string]string) tftypes.Value {
	t.Helper()
	authType, ok := rebuildSchema().Schema.Attributes["registry_auth"].GetType().TerraformType(context.Background()).(tftypes.Object)
	if !ok {
		t.Fatal("registry_auth is not an object")
	}
	kindValues := map[string]tftypes.Value{}
	for kind, fields := range kinds {
		values := map[string]tftypes.Value{}
		for name, v := range fields {
			values[name] = str(v)
		}
		kindValues[kind] = objectOf(t, authType.AttributeTypes[kind], values)
	}
	return objectOf(t, authType, kindValues)
}

// The action meets the resource's rules at plan time, on the attribute at fault, before anything
// is invoked: registry_auth mapped the same way (exactly one kind, never a silent preference),
// the core's rules on the spec, and a timeout that is a positive duration.
func TestRebuildActionValidateConfig(t *testing.T) {
	e2b := func(values map[string]tftypes.Value) map[string]tftypes.Value {
		values["backend"], values["template_id"] = str("e2b"), str("py")
		if _, ok := values["image"]; !ok {
			values["image"] = str("python:3.12")
		}
		return values
	}
	aws := map[string]string{"access_key_id": "AKID", "secret_access_key": "s", "region": "us-east-1"}
	basic := map[string]string{"username": "ci", "password": "pw"}
	for _, tt := range []struct {
		name   string
		values map[string]tftypes.Value
		want   []string // "path: summary: detail" by substring; none means valid
	}{
		{"valid", e2b(map[string]tftypes.Value{"timeout": str("45m")}), nil},
		{"two credential kinds", e2b(map[string]tftypes.Value{"image": str("123456789012.dkr.ecr.us-east-1.amazonaws.com/ds:1"),
			"registry_auth": actionAuth(t, map[string]map[string]string{"aws": aws, "basic": basic})}),
			[]string{"registry_auth: registry_auth needs exactly one credential kind: Set exactly one of registry_auth.basic, registry_auth.aws or registry_auth.gcp; got aws and basic."}},
		{"an ECR login for another registry", e2b(map[string]tftypes.Value{"image": str("ghcr.io/acme/app:1"),
			"registry_auth": actionAuth(t, map[string]map[string]string{"aws": aws})}),
			[]string{"registry_auth: Invalid registry_auth.aws: registry_auth.aws: is an Amazon ECR login, but image is on ghcr.io"}},
		{"a blank password", e2b(map[string]tftypes.Value{"registry_auth": actionAuth(t, map[string]map[string]string{"basic": {"username": "ci", "password": "  "}})}),
			[]string{"registry_auth: Invalid registry_auth.basic.password: registry_auth.basic.password: must not be blank"}},
		{"a bad template id", map[string]tftypes.Value{"backend": str("opensandbox"), "template_id": str("Not An ID"), "image": str("python:3.12")},
			[]string{`template_id: Invalid template_id: template_id: "Not An ID" is not valid for opensandbox`}},
		{"a package that is a shell command", e2b(map[string]tftypes.Value{"packages": tftypes.NewValue(tftypes.List{ElementType: tftypes.String},
			[]tftypes.Value{str("numpy"), str("numpy; rm -rf /")})}), []string{"packages[1]: Invalid packages[1]"}},
		{"an odd vCPU count", e2b(map[string]tftypes.Value{"cpu_count": tftypes.NewValue(tftypes.Number, 3)}), []string{"cpu_count: Invalid cpu_count"}},
		{"a NUL in start_cmd", e2b(map[string]tftypes.Value{"start_cmd": str("run\x00x")}), []string{"start_cmd: Invalid start_cmd"}},
		{"a zero timeout", e2b(map[string]tftypes.Value{"timeout": str("0s")}), []string{`timeout: Invalid timeout: timeout must be a positive duration such as "45m" or "1h30m", got "0s"`}},
		{"a negative timeout", e2b(map[string]tftypes.Value{"timeout": str("-1s")}), []string{`timeout: Invalid timeout: timeout must be a positive duration`}},
		{"a timeout that is no duration", e2b(map[string]tftypes.Value{"timeout": str("soon")}), []string{`timeout: Invalid timeout`}},
		{"an image known only at apply", e2b(map[string]tftypes.Value{"image": tftypes.NewValue(tftypes.String, tftypes.UnknownValue),
			"registry_auth": actionAuth(t, map[string]map[string]string{"aws": aws})}), nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var resp action.ValidateConfigResponse
			(&templateRebuildAction{}).ValidateConfig(context.Background(), action.ValidateConfigRequest{Config: actionConfigOf(t, tt.values)}, &resp)
			var got []string
			for _, d := range resp.Diagnostics {
				at := ""
				if withPath, ok := d.(diag.DiagnosticWithPath); ok {
					at = withPath.Path().String()
				}
				got = append(got, at+": "+d.Summary()+": "+d.Detail())
			}
			if len(got) != len(tt.want) {
				t.Fatalf("diagnostics = %q, want %d: %q", got, len(tt.want), tt.want)
			}
			for i, want := range tt.want {
				if !strings.Contains(got[i], want) {
					t.Errorf("diagnostic %d = %q, want %q", i, got[i], want)
				}
			}
		})
	}
}

// The action maps its configuration onto the core as the resource does, each credential kind to
// its own.
func TestRebuildActionSpec(t *testing.T) {
	config := actionConfigOf(t, map[string]tftypes.Value{"backend": str("e2b"), "template_id": str("py"),
		"image": str("europe-docker.pkg.dev/p/r/app:1"), "start_cmd": str(""), "memory_mb": tftypes.NewValue(tftypes.Number, 2048),
		"registry_auth": actionAuth(t, map[string]map[string]string{"gcp": {"service_account_json": "/keys/sa.json"}})})
	model, _, diags := readActionModel(context.Background(), config)
	if diags.HasError() {
		t.Fatal(diags)
	}
	spec, diags := model.spec(context.Background(), model)
	gcp, ok := spec.RegistryAuth.(*builders.GCPAuth)
	if diags.HasError() || !ok || gcp.ServiceAccountJSON.Reveal() != "/keys/sa.json" || spec.StartCmd == nil || *spec.StartCmd != "" ||
		spec.MemoryMB != 2048 || spec.Image != "europe-docker.pkg.dev/p/r/app:1" || spec.Packages != nil {
		t.Errorf("spec = %+v (auth %#v), %v", spec, spec.RegistryAuth, diags)
	}
}
