package provider

import (
	"bytes"
	"context"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/hashicorp/terraform-plugin-log/tflogtest"
)

// TestConfigureLogsVersion: the version goreleaser stamps into the binary is in the provider's log,
// so a bug report's TF_LOG output says which release ran.
func TestConfigureLogsVersion(t *testing.T) {
	var out bytes.Buffer
	ctx := tflogtest.RootLogger(context.Background(), &out)
	p := New("1.2.3")()
	var schemaResp provider.SchemaResponse
	p.Schema(ctx, provider.SchemaRequest{}, &schemaResp)
	objectType, _ := schemaResp.Schema.Type().TerraformType(ctx).(tftypes.Object)
	unset := map[string]tftypes.Value{} // an empty provider block: every setting null
	for name, typ := range objectType.AttributeTypes {
		unset[name] = tftypes.NewValue(typ, nil)
	}
	config := tfsdk.Config{Schema: schemaResp.Schema, Raw: tftypes.NewValue(objectType, unset)}

	var resp provider.ConfigureResponse
	p.Configure(ctx, provider.ConfigureRequest{Config: config}, &resp)
	if resp.Diagnostics.HasError() {
		t.Fatal(resp.Diagnostics)
	}
	entries, err := tflogtest.MultilineJSONDecode(&out)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if e["@message"] == "sandbox provider v1.2.3" && e["version"] == "1.2.3" {
			return
		}
	}
	t.Fatalf("no 'sandbox provider v1.2.3' entry in the log: %v", entries)
}
