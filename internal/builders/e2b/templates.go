package e2b

import (
	"context"
	"net/http"
	"net/url"
	"strconv"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders"
	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders/apihttp"
)

// statusLogsLimit is the most log entries one status poll returns (the spec's maximum).
const statusLogsLimit = 100

// statusPollItems bounds the items of a status poll's answer (apihttp.Request.MaxItems): a full
// page of log entries with their fields, the legacy logs beside them and the reason's entries hold
// about 700; more is no E2B answer to a poll of statusLogsLimit entries.
const statusPollItems = 100 * statusLogsLimit

// templateListItems bounds the items of GET /templates, which lists the whole team in one page:
// about 20 per template, so a team of over 10,000 templates.
const templateListItems = 250_000

// buildsPageLimit is how many of a template's newest builds are read to find one in flight.
const buildsPageLimit = 20

// createTemplate registers the template, or a new build of it when the name exists.
//
// Retried like an idempotent call: the template is keyed by its name, so a repeat that reached
// the server only adds a build that is never started (and nothing runs); the build id of the
// answer we get is the one we start.
func (c *client) createTemplate(ctx context.Context, req templateBuildRequestV3) (templateRequestResponseV3, error) {
	var out templateRequestResponseV3
	// A 429 (the team's build limit) is waited out by registerWhenSlotFree, not retried here.
	// It runs on briefly after an interrupt: a template state does not know of would be an orphan.
	err := c.Do(ctx, apihttp.Request{Method: http.MethodPost, Path: "/v3/templates", In: req, Out: &out, Retry: apihttp.RetryExcept429,
		Finish: apihttp.CreateFinish})
	return out, err
}

// startBuild starts build buildID. It is keyed by the build id, so a repeat cannot start a second
// build: at worst it is refused because the build already started (see Builder.startBuild).
func (c *client) startBuild(ctx context.Context, templateID, buildID string, req templateBuildStartV2, secrets []builders.Secret) error {
	return c.Do(ctx, apihttp.Request{Method: http.MethodPost, Path: "/v2/templates/" + url.PathEscape(templateID) + "/builds/" + url.PathEscape(buildID),
		In: req, Secrets: secrets, Retry: apihttp.RetryAll})
}

// buildStatus returns the build's state and its log entries from logsOffset on.
func (c *client) buildStatus(ctx context.Context, templateID, buildID string, logsOffset int) (templateBuildInfo, error) {
	var out templateBuildInfo
	query := url.Values{"logsOffset": {strconv.Itoa(logsOffset)}, "limit": {strconv.Itoa(statusLogsLimit)}}
	err := c.Do(ctx, apihttp.Request{Method: http.MethodGet, Path: "/templates/" + url.PathEscape(templateID) + "/builds/" + url.PathEscape(buildID) + "/status",
		Query: query, Out: &out, MaxItems: statusPollItems})
	return out, err
}

// templateByAlias resolves an alias, optionally "alias:tag"; a missing alias, or a tag no ready
// build carries, is a 404 apihttp.Error.
func (c *client) templateByAlias(ctx context.Context, alias string) (templateAliasResponse, error) {
	var out templateAliasResponse
	err := c.Do(ctx, apihttp.Request{Method: http.MethodGet, Path: "/templates/aliases/" + url.PathEscape(alias), Out: &out})
	return out, err
}

// templateBuilds lists the template's newest builds (by template ID: this endpoint does not
// resolve aliases), to see whether another build of it is still in flight.
func (c *client) templateBuilds(ctx context.Context, templateID string) (templateWithBuilds, error) {
	var out templateWithBuilds
	err := c.Do(ctx, apihttp.Request{Method: http.MethodGet, Path: "/templates/" + url.PathEscape(templateID),
		Query: url.Values{"limit": {strconv.Itoa(buildsPageLimit)}}, Out: &out})
	return out, err
}

// templateTags lists the newest assignment of each of the template's tags (by id or alias), whatever
// the status of the build it points at (db/queries/templates/list_template_tags.sql).
func (c *client) templateTags(ctx context.Context, idOrAlias string) ([]templateTag, error) {
	var out []templateTag
	err := c.Do(ctx, apihttp.Request{Method: http.MethodGet, Path: "/templates/" + url.PathEscape(idOrAlias) + "/tags", Out: &out})
	return out, err
}

// assignTags points tags at the ready build target ("name:tag" or "name:<build id>") names. Retried:
// a repeat only assigns the same tags to the same build again.
func (c *client) assignTags(ctx context.Context, target string, tags []string) (assignedTemplateTags, error) {
	var out assignedTemplateTags
	err := c.Do(ctx, apihttp.Request{Method: http.MethodPost, Path: "/templates/tags", In: assignTemplateTagsRequest{Target: target, Tags: tags},
		Out: &out, Retry: apihttp.RetryAll})
	return out, err
}

// deleteTags removes every assignment of the tags from the template name.
func (c *client) deleteTags(ctx context.Context, name string, tags []string) error {
	return c.Do(ctx, apihttp.Request{Method: http.MethodDelete, Path: "/templates/tags", In: deleteTemplateTagsRequest{Name: name, Tags: tags}})
}

// deleteTemplate deletes a template by id or alias.
func (c *client) deleteTemplate(ctx context.Context, templateIDOrAlias string) error {
	return c.Do(ctx, apihttp.Request{Method: http.MethodDelete, Path: "/templates/" + url.PathEscape(templateIDOrAlias)})
}
