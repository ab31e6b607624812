package provider

import (
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders"
	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders/backends"
)

// The schema's words about backends, derived from their descriptors so that a new backend
// shows up in every description and validator without editing them.

// backendOneOf accepts the names of bs.
func backendOneOf(bs []*builders.Backend) validator.String {
	return stringvalidator.OneOf(backends.Names(bs)...)
}

// backtickList lists the names of bs as Markdown code: "`e2b` or `opensandbox`".
func backtickList(bs []*builders.Backend) string {
	quoted := make([]string, len(bs))
	for i, b := range bs {
		quoted[i] = "`" + string(b.Name) + "`"
	}
	return joinProse(quoted, "or")
}

// titles lists the backends' titles in prose: "E2B, OpenSandbox and Bedrock AgentCore".
func titles(bs []*builders.Backend) string {
	names := make([]string, len(bs))
	for i, b := range bs {
		names[i] = b.Title
	}
	return joinProse(names, "and")
}

// joinProse joins words as prose does: "a, b and c".
func joinProse(words []string, conjunction string) string {
	if len(words) < 2 {
		return strings.Join(words, "")
	}
	return strings.Join(words[:len(words)-1], ", ") + " " + conjunction + " " + words[len(words)-1]
}

// usedBy is " (E2B only)" for a field only some backends use, "" for one all use.
func usedBy(field string) string {
	users := backends.Where(func(b *builders.Backend) bool { return b.Uses(field) })
	if len(users) == len(backends.All) {
		return ""
	}
	return " (" + titles(users) + " only)"
}

// templateNames says what a template id names on each backend: "the E2B template alias, ...".
func templateNames(bs []*builders.Backend) string {
	names := make([]string, len(bs))
	for i, b := range bs {
		names[i] = "the " + b.Title + " " + b.TemplateNoun
	}
	return joinProse(names, "or")
}

// templateIDRules says each backend's template-id rule, grouping backends that share one.
func templateIDRules() string {
	var texts []string
	byText := map[string][]*builders.Backend{}
	for _, b := range backends.All {
		if byText[b.TemplateID.Text] == nil {
			texts = append(texts, b.TemplateID.Text)
		}
		byText[b.TemplateID.Text] = append(byText[b.TemplateID.Text], b)
	}
	rules := make([]string, len(texts))
	for i, text := range texts {
		rules[i] = fmt.Sprintf("%s: %s", titles(byText[text]), text)
	}
	return strings.Join(rules, "; ")
}

// defaultStartCmds says what each building backend starts when start_cmd is unset.
func defaultStartCmds() string {
	var defaults []string
	for _, b := range backends.Where((*builders.Backend).Builds) {
		if b.DefaultStartCmdDoc != "" {
			defaults = append(defaults, b.Title+": "+b.DefaultStartCmdDoc)
		}
	}
	return strings.Join(defaults, "; ")
}

// registryExchanges says where each building backend turns aws and gcp credentials into a login.
func registryExchanges() string {
	server := backends.Where(func(b *builders.Backend) bool { return b.Uses("registry_auth") && !b.RegistryLogin })
	client := backends.Where(func(b *builders.Backend) bool { return b.Uses("registry_auth") && b.RegistryLogin })
	var says []string
	if len(server) > 0 {
		says = append(says, titles(server)+" exchanges AWS and GCP credentials server side.")
	}
	if len(client) > 0 {
		says = append(says, "The provider exchanges them for "+titles(client)+", which takes only a username and password "+
			"(ECR token; Google access token with user `oauth2accesstoken`).")
	}
	return strings.Join(says, " ")
}

// taggingBackends are the backends whose builds have tags.
func taggingBackends() []*builders.Backend {
	return backends.Where(func(b *builders.Backend) bool { return b.Tags != nil })
}

// onlyTagging is " (E2B only)" while some backends have no tags.
func onlyTagging() string {
	if tagging := taggingBackends(); len(tagging) < len(backends.All) {
		return " (" + titles(tagging) + " only)"
	}
	return ""
}

// liveTags names the tag each tagging backend's plain template name starts: "`default` on E2B".
func liveTags() string {
	var says []string
	for _, b := range taggingBackends() {
		says = append(says, "`"+b.Tags.Live+"` on "+b.Title)
	}
	return joinProse(says, "and")
}

// namingBuilds names the backends whose template_ref names the build: "Daytona" (Backend.RefNamesBuild).
func namingBuilds() string {
	return titles(backends.Where(func(b *builders.Backend) bool { return b.RefNamesBuild }))
}
