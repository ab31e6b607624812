package provider

import (
	"context"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// TestModelCodecMatchesTheFramework: readModel and writeModel read and write what the
// framework's Get and Set do, for a value with every attribute set, nested ones included, and for
// one with every attribute null or unknown.
func TestModelCodecMatchesTheFramework(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := templateResourceSchema(ctx)
	objectType, ok := s.Type().TerraformType(ctx).(tftypes.Object)
	if !ok {
		t.Fatalf("the schema's type is %T", s.Type().TerraformType(ctx))
	}
	str := func(v string) tftypes.Value { return tftypes.NewValue(tftypes.String, v) }
	strings := func(vs ...string) tftypes.Value {
		values := make([]tftypes.Value, len(vs))
		for i, v := range vs {
			values[i] = str(v)
		}
		return tftypes.NewValue(tftypes.List{ElementType: tftypes.String}, values)
	}
	nested := func(at tftypes.Type) tftypes.Object {
		typ, ok := at.(tftypes.Object)
		if !ok {
			t.Fatalf("%s is not an object", at)
		}
		return typ
	}
	object := func(at string, values map[string]tftypes.Value) tftypes.Value {
		typ := nested(objectType.AttributeTypes[at])
		for name, attributeType := range typ.AttributeTypes {
			if _, ok := values[name]; !ok {
				values[name] = tftypes.NewValue(attributeType, nil)
			}
		}
		return tftypes.NewValue(typ, values)
	}
	full := map[string]tftypes.Value{
		"id": str("py"), "backend": str("e2b"), "template_id": str("py"), "image": str("python:3.12"),
		"registry_auth": object("registry_auth", map[string]tftypes.Value{
			"basic": tftypes.NewValue(nested(objectType.AttributeTypes["registry_auth"]).AttributeTypes["basic"], map[string]tftypes.Value{
				"username": str("u"), "password": str("p"), "password_wo": tftypes.NewValue(tftypes.String, nil),
				"password_wo_version": tftypes.NewValue(tftypes.Number, 2)})}),
		"packages": strings("numpy", "pandas"), "start_cmd": str(""), "ready_cmd": str("true"),
		"cpu_count": tftypes.NewValue(tftypes.Number, 2), "memory_mb": tftypes.NewValue(tftypes.Number, 1024),
		"base_template": str("base"), "dockerfile": str("FROM x"),
		"force_rebuild": tftypes.NewValue(tftypes.Bool, true), "keep_remotely": tftypes.NewValue(tftypes.Bool, false),
		"rebuild_triggers": tftypes.NewValue(tftypes.Map{ElementType: tftypes.String}, map[string]tftypes.Value{"a": str("1")}),
		"timeouts":         object("timeouts", map[string]tftypes.Value{"create": str("5m")}),
		"template_ref":     object("template_ref", map[string]tftypes.Value{"provider": str("e2b"), "value": str("py")}),
		"status":           str("SUCCESS"), "detail": str("built"), "stage": str(""), "logs": strings("a", "b"),
		"last_built_at": str("2026-01-01T00:00:00Z"), "image_digest": str("sha256:00"), "image_digest_check": str("warn"),
		"sandbox_entrypoint": strings("sh", "-c", "run"),
		"build_id":           str("b-1"), "build_ref": object("build_ref", map[string]tftypes.Value{"provider": str("e2b"), "value": str("py:b-1")}),
		"tags":      tftypes.NewValue(tftypes.Set{ElementType: tftypes.String}, []tftypes.Value{str("v1")}),
		"candidate": tftypes.NewValue(tftypes.Bool, true), "min_free_disk_mb": tftypes.NewValue(tftypes.Number, 512),
		"disk_gb": tftypes.NewValue(tftypes.Number, 5), "gpu_count": tftypes.NewValue(tftypes.Number, 1),
		"ready_check": object("ready_check", map[string]tftypes.Value{"port": tftypes.NewValue(tftypes.Number, 8888)}),
		"files_hash":  str("h"), "sandbox_user": str("user"), "sandbox_workdir": str("/home/user"),
		"sandbox_env": tftypes.NewValue(tftypes.Map{ElementType: tftypes.String}, map[string]tftypes.Value{"A": str("1")}),
	}
	stepsType, ok := objectType.AttributeTypes["steps"].(tftypes.List)
	if !ok {
		t.Fatalf("steps is %s, not a list", objectType.AttributeTypes["steps"])
	}
	step := map[string]tftypes.Value{}
	for name, typ := range nested(stepsType.ElementType).AttributeTypes {
		step[name] = tftypes.NewValue(typ, nil)
	}
	step["workdir"] = str("/app")
	full["steps"] = tftypes.NewValue(stepsType, []tftypes.Value{tftypes.NewValue(stepsType.ElementType, step)})
	for name := range objectType.AttributeTypes {
		if _, ok := full[name]; !ok {
			t.Fatalf("the full value lacks %s: give it one, so the codec is checked on it", name)
		}
	}
	sparse := map[string]tftypes.Value{}
	for name, typ := range objectType.AttributeTypes {
		sparse[name] = tftypes.NewValue(typ, nil)
		if name == "image" || name == "packages" || name == "template_ref" {
			sparse[name] = tftypes.NewValue(typ, tftypes.UnknownValue)
		}
	}
	for name, values := range map[string]map[string]tftypes.Value{"full": full, "null and unknown": sparse} {
		t.Run(name, func(t *testing.T) {
			raw := tftypes.NewValue(objectType, values)
			var want, got templateModel
			if diags := (tfsdk.State{Schema: s, Raw: raw}).Get(ctx, &want); diags.HasError() {
				t.Fatalf("Get: %v", diags)
			}
			if diags := readModel(ctx, raw, &got); diags.HasError() {
				t.Fatalf("readModel: %v", diags)
			}
			for name := range objectType.AttributeTypes {
				if w, g := want.attribute(name), got.attribute(name); g == nil || !g.Equal(w) {
					t.Errorf("readModel: %s = %v, Get reads %v", name, g, w)
				}
			}
			written := tfsdk.State{Schema: s}
			if diags := written.Set(ctx, got); diags.HasError() {
				t.Fatalf("Set: %v", diags)
			}
			var encoded tftypes.Value
			if diags := writeModel(ctx, got, &encoded); diags.HasError() {
				t.Fatalf("writeModel: %v", diags)
			}
			if !encoded.Equal(written.Raw) || !encoded.Equal(raw) {
				t.Errorf("writeModel wrote %v\nSet writes %v", encoded, written.Raw)
			}
		})
	}
}
