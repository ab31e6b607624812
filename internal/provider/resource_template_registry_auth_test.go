package provider

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// TestServiceAccountKeyPathWarnsWhenMissing: a GCP key that is neither JSON nor an existing file
// warns at plan time (the same apply may still write the file), without quoting the value.
func TestServiceAccountKeyPathWarnsWhenMissing(t *testing.T) {
	existing := filepath.Join(t.TempDir(), "sa.json")
	if err := os.WriteFile(existing, []byte("{}"), 0o600); err != nil {
		t.Fatal(err)
	}
	for value, wantWarning := range map[string]bool{existing: false, "/keys/missing-sa.json": true, "not-json-not-a-file": true} {
		var resp validator.StringResponse
		keyPathExists{}.ValidateString(t.Context(), validator.StringRequest{
			Path: path.Root("registry_auth").AtName("gcp").AtName("service_account_json"), ConfigValue: types.StringValue(value)}, &resp)
		if got := resp.Diagnostics.WarningsCount() == 1; got != wantWarning || resp.Diagnostics.HasError() {
			t.Errorf("%s: diagnostics %v, want a warning: %v", value, resp.Diagnostics, wantWarning)
		}
		for _, d := range resp.Diagnostics {
			if strings.Contains(d.Detail(), value) {
				t.Errorf("the diagnostic quotes the value: %q", d.Detail())
			}
		}
	}
}
