package daytona

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"time"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders"
	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders/apihttp"
)

// Registry credentials are organization entries, not part of a create request: the server picks,
// when a runner pulls, the first organization entry whose URL prefixes the image name
// (docker-registry.service.ts findSourceRegistryBySnapshotImageName, findRegistryByUrlMatch).
// A build that has registry_auth writes one entry named after its template, and removes it when
// the build ends: the snapshot's image is then in Daytona's own registry, so nothing needs the
// entry any more, and no credential stays behind that no state records. An entry left by an
// interrupted build is found by its name and removed by the next build or destroy.

// registryEntryName is the entry a build of templateID writes.
func registryEntryName(templateID string) string { return "terraform-sandbox-" + templateID }

// registryURL is the entry URL the server matches image against: its registry host, with Docker
// Hub as the server stores it (normalizeRegistryUrl: "docker.io").
func registryURL(image string) (string, error) {
	host, ok := builders.RegistryHost(image)
	if !ok {
		return "", fmt.Errorf("%q is not an image reference", image)
	}
	return host, nil
}

// registryLoginFor is the basic login registry_auth comes to: as given, or exchanged (aws, gcp).
func (b *Builder) registryLoginFor(ctx context.Context, image string, auth builders.RegistryAuth) (string, builders.Secret, error) {
	if basic, ok := auth.(*builders.BasicAuth); ok {
		return basic.Username, basic.Password, nil
	}
	kind := auth.Kind()
	if b.registryLogin == nil {
		return "", builders.Secret{}, builders.AtStage(builders.StageRegistryAuth, fmt.Errorf(
			"registry_auth.%s: Daytona takes only a username and password, and no %s credential exchange is configured", kind, kind))
	}
	username, password, err := b.registryLogin(ctx, image, auth)
	if err != nil {
		return "", builders.Secret{}, builders.AtStageIfBare(builders.StageRegistryAuth, fmt.Errorf("registry_auth.%s: login for %s: %w", kind, image, err))
	}
	if username == "" || password.IsEmpty() {
		return "", builders.Secret{}, builders.AtStage(builders.StageRegistryAuth, fmt.Errorf("registry_auth.%s: the login exchange returned no credentials", kind))
	}
	return username, password, nil
}

// writeRegistryEntry creates or updates the template's entry with the login for image.
func (b *Builder) writeRegistryEntry(ctx context.Context, templateID, image string, auth builders.RegistryAuth, log *builders.BuildLog) error {
	username, password, err := b.registryLoginFor(ctx, image, auth)
	if err != nil {
		return err
	}
	host, err := registryURL(image)
	if err != nil {
		return builders.AtStage(builders.StageValidation, err)
	}
	entries, err := b.api.registries(ctx, registryEntryName(templateID))
	if err != nil {
		return builders.AtStage(builders.StageRegistryAuth, err)
	}
	body := createRegistry{Name: registryEntryName(templateID), URL: host, Username: username, Password: password.Reveal()}
	secrets := []builders.Secret{password}
	if len(entries) > 0 {
		err = b.api.Do(ctx, apihttp.Request{Method: http.MethodPatch, Path: "/docker-registry/" + url.PathEscape(entries[0].ID), In: body, Secrets: secrets})
		log.Addf("updated the organization's registry entry %s for %s (removed when the build ends)", body.Name, host)
	} else {
		err = b.api.Do(ctx, apihttp.Request{Method: http.MethodPost, Path: "/docker-registry", In: body, Secrets: secrets,
			Retry: apihttp.RetryOnly429, Finish: apihttp.CreateFinish})
		log.Addf("created the organization's registry entry %s for %s (removed when the build ends)", body.Name, host)
	}
	return builders.AtStageIfBare(builders.StageRegistryAuth, err)
}

// removeRegistryEntries deletes the template's entries, if any; it runs on after an interrupt,
// briefly, so an interrupted build leaves no credential behind.
func (b *Builder) removeRegistryEntries(ctx context.Context, templateID string) error {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), time.Minute)
	defer cancel()
	entries, err := b.api.registries(ctx, registryEntryName(templateID))
	for _, e := range entries {
		if delErr := b.api.Do(ctx, apihttp.Request{Method: http.MethodDelete, Path: "/docker-registry/" + url.PathEscape(e.ID)}); delErr != nil && !apihttp.IsNotFound(delErr) {
			err = delErr
		}
	}
	return err
}

// registries are the organization's entries called name.
func (c *client) registries(ctx context.Context, name string) ([]registry, error) {
	var all []registry
	if err := c.Do(ctx, apihttp.Request{Method: http.MethodGet, Path: "/docker-registry", Out: &all}); err != nil {
		return nil, fmt.Errorf("listing registry entries: %w", err)
	}
	var named []registry
	for _, r := range all {
		if r.Name == name && (r.RegistryType == "" || r.RegistryType == "organization") {
			named = append(named, r)
		}
	}
	return named, nil
}
