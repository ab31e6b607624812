// Package e2e drives the real CLI (TF_ACC_TERRAFORM_PATH: bin/terraform or bin/tofu) against the
// provider built as a binary, the way a pipeline runs it: every example must validate, and an
// interrupted apply must stop promptly and keep what it created in state.
package e2e
