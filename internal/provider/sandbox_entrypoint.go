package provider

import (
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders/backends"
)

// sandboxEntrypointValue is sandbox_entrypoint: what a consumer passes as entrypoint when it starts
// a sandbox from the template (OpenSandbox: the builder sandbox's), null for backends without one.
func sandboxEntrypointValue(backend, startCmd types.String) types.List {
	descriptor, err := backends.Named(backend.ValueString())
	if err != nil || descriptor.SandboxEntrypoint == nil {
		return types.ListNull(types.StringType)
	}
	argv := descriptor.SandboxEntrypoint(startCmd.ValueStringPointer())
	values := make([]attr.Value, len(argv))
	for i, arg := range argv {
		values[i] = types.StringValue(arg)
	}
	return types.ListValueMust(types.StringType, values)
}
