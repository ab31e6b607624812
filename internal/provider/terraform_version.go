package provider

import (
	"github.com/hashicorp/go-version"
)

// failedCreateCrashes tells whether the CLI that configured the provider (its version, as
// ConfigureProvider reports it) crashes when a create returns an error together with a non-null
// state, and empties the state file: Terraform 1.16's managedResourceExecute
// (internal/terraform/node_resource_apply_instance.go, 1.16.0 to 1.16.4, every 1.16 the module
// proxy serves) writes the untainted object, whose status is unset, again after taintInstanceState
// wrote the tainted one ("Failed to serialize resource instance in state ... ObjectStatus(0)").
// 1.15 and earlier taint through maybeTainted and are safe. The fix is on Terraform's main branch
// (September 2026) but in no release yet, so the range stays open. OpenTofu reports its own
// version, below 1.16 today; a later one is treated alike, which costs it only the tainted record.
func failedCreateCrashes(terraformVersion string) bool {
	v, err := version.NewVersion(terraformVersion)
	return err == nil && v.Core().GreaterThanOrEqual(firstCrashingRelease)
}

var firstCrashingRelease = version.Must(version.NewVersion("1.16.0"))
