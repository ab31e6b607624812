// Package registrylogin turns builders.RegistryAuth into the username/password login that backends
// taking only basic registry auth (OpenSandbox) need: basic credentials pass through, AWS keys are
// exchanged for an ECR token, and a Google service-account key for an OAuth2 access token.
package registrylogin
