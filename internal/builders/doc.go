// Package builders is the provider-agnostic template builder core: the template spec and its
// validation (as field errors), registry credentials, build results, the Backend descriptor and
// the Builder interface each backend package provides, and Ensure, the one build flow every
// backend shares. The backends are listed in internal/builders/backends.
//
// It has no Terraform imports; internal/provider maps Terraform data onto these types.
package builders
