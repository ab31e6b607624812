// Package builders is the provider-agnostic template builder core: the template spec and its
// validation, registry credentials, build results, the Builder interface each backend implements,
// and Ensure, the one build flow every backend shares.
//
// It has no Terraform imports; internal/provider maps Terraform data onto these types.
package builders
