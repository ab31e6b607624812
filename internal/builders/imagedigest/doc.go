// Package imagedigest resolves an image tag to the digest its registry serves now, with the same
// credentials a build pulls with, so the provider can see a moving tag (python:3.12, :latest, a
// CI-pushed :main) move and rebuild. The registry protocol is go-containerregistry's: it handles
// Docker Hub, ECR, Artifact Registry and any OCI registry, and the token dance between them.
// route decides where each request may go: credentials only to the registries they are for and
// only once asked for, TLS everywhere but on this machine, nothing to a link-local address.
package imagedigest
