package builders

import (
	"context"
	"fmt"
	"regexp"
	"time"
)

// Backend describes one sandbox backend: everything code outside its package needs to know about
// it. Each backend package exports one (e2b.Backend, ...) and internal/builders/backends lists
// them; the provider derives its schema, plan-time checks and factory from these descriptors.
type Backend struct {
	Name  SandboxProvider // as HCL spells it: "e2b"
	Title string          // as prose spells it: "E2B"

	TemplateID IDRule
	// TemplateNoun is what a template id names there, for docs: "alias", "snapshot name".
	TemplateNoun string
	// Sources are the fields it builds from (SourceImage, ...); none means it builds nothing. A
	// backend that builds deletes what it built: its builder is a Deleter.
	Sources []string
	// Ignored maps the spec fields it accepts but does not use to the reason, for warnings and docs.
	Ignored map[string]string
	// DefaultStartCmdDoc says, in Markdown, what starts when start_cmd is unset ("" when nothing).
	DefaultStartCmdDoc string
	// Lists tells whether its builder can name existing templates (terraform query): whether it
	// is a Lister. backends.TestCapabilitiesMatchBuilders checks that each capability stated here
	// is what the builder does.
	Lists bool
	// RegistryLogin tells whether it takes only a basic registry login, so aws and gcp
	// registry_auth are exchanged for one client side (Env.RegistryLogin): its Open fails without
	// one (backends.TestCapabilitiesMatchBuilders).
	RegistryLogin bool

	// Settings are the provider-block settings it reads; Blocks describe the blocks they sit in.
	Settings []Setting
	Blocks   []SettingBlock
	// Open returns its builder from the provider's settings. It makes no request.
	Open func(ctx context.Context, env Env) (Builder, error)

	// Check adds the backend's own rules on a spec (nil: none beyond the shared ones).
	Check func(TemplateSpec) FieldErrors
	// ConsumersPassStepsContext tells that its templates keep the files the steps write but not the
	// working directory and user they set (an OpenSandbox snapshot is a filesystem), so whoever
	// starts a sandbox passes them: the resource outputs them (sandbox_workdir, sandbox_user). False:
	// the template keeps them (E2B), or the backend has no steps. No backend's sandboxes get the
	// steps' environment: every backend that builds outputs sandbox_env.
	ConsumersPassStepsContext bool
	// SandboxEntrypoint is what a consumer passes as entrypoint when starting a sandbox from the
	// template, for a start_cmd (nil: the template keeps its start command). Set exactly when
	// ConsumersPassStepsContext is: a template that keeps no process state keeps neither.
	SandboxEntrypoint func(startCmd *string) []string
	// Tags are the rules of its build tags (nil: it has none). Set exactly when its builder is a
	// Tagger, and an InputsChecker: the tags under TagRules.Reserved record each build's inputs.
	Tags *TagRules
	// Checks tells whether its builder can start a sandbox from one build and run commands in it
	// (sandbox_template_check): whether it is a SandboxStarter.
	Checks bool
	// RefNamesBuild tells that consumers start a build by its own name, which changes with each
	// build (a Daytona snapshot's name carries its inputs' fingerprint), not by the template id:
	// template_ref.value is then the build (TemplateBuildResult.BuildID), never the template id.
	RefNamesBuild bool
	// TemplateOfBuild is the template id a build's name (its template_ref value) belongs to, ""
	// when the name is no build of this backend's. Set exactly when RefNamesBuild is.
	TemplateOfBuild func(build string) string
}

// Builds tells whether the backend builds templates (Bedrock only refers to existing ones).
func (b *Backend) Builds() bool { return len(b.Sources) > 0 }

// Uses tells whether the backend uses a spec field (it is not in Ignored).
func (b *Backend) Uses(field string) bool { return b.Ignored[field] == "" }

// ValidateTemplateID checks id against the backend's rule.
func (b *Backend) ValidateTemplateID(id string) FieldErrors {
	if b.TemplateID.Pattern.MatchString(id) {
		return nil
	}
	return FieldErrors{{Field: "template_id", Message: fmt.Sprintf("%q is not valid for %s: must be %s", id, b.Name, b.TemplateID.Text)}}
}

// IDRule is a backend's rule for template ids.
type IDRule struct {
	Pattern *regexp.Regexp
	Text    string // the rule in words, for diagnostics and docs
}

// NameRule is the template-id rule of E2B (a template name, at most 128 characters,
// TemplateBuildRequestV3.name, lower case); OpenSandbox uses it too, which keeps names portable.
var NameRule = IDRule{
	Pattern: regexp.MustCompile(`^[a-z0-9](?:[a-z0-9_-]{0,126}[a-z0-9])?$`),
	Text:    "1-128 lower-case letters, digits, '-' or '_', starting and ending with a letter or digit",
}

// Env is what a backend's Open gets from the provider.
type Env struct {
	Settings  Settings
	UserAgent string
	// RequestTimeout bounds each API request (zero: only the context does).
	RequestTimeout time.Duration
	// RegistryLogin exchanges aws and gcp registry_auth for a basic login; set for backends
	// whose descriptor says RegistryLogin.
	RegistryLogin RegistryLoginFunc
}

// RegistryLoginFunc turns registry credentials into the basic login for pulling image: an empty
// username means an anonymous pull (registrylogin.Exchanger.Login has this signature).
type RegistryLoginFunc func(ctx context.Context, image string, auth RegistryAuth) (username string, password Secret, err error)
