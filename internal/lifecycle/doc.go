// Package lifecycle holds the model-based lifecycle test (TestLifecycleModel): seeded sequences of
// what users and pipelines do to sandbox templates (change inputs and settings, checks that gate a
// tag and pass or fail, failing, hanging and slow builds, short timeouts, Ctrl-C and kill -9,
// deletes behind Terraform's back, a second working directory, import, destroy), driven through a
// real CLI and the provider binary against the standalone emulator (cmd/sandbox-emulator) as a
// black box, with what state promises (README, "What state promises") checked after every step.
// The package has no code outside its tests.
package lifecycle
