package provider

import (
	"context"
	"fmt"
	"maps"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/booldefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringdefault"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders"
	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders/backends"
)

// Defaults for the timeouts block: image builds routinely take longer than the 20 minutes image
// providers often default to, which users then hit as "context deadline exceeded".
const (
	defaultCreateTimeout = "30m"
	defaultUpdateTimeout = "30m"
	defaultDeleteTimeout = "10m"
)

func templateResourceSchema(ctx context.Context) schema.Schema {
	s := schema.Schema{
		MarkdownDescription: "A sandbox template: an E2B template, an OpenSandbox snapshot, or a reference to a Bedrock " +
			"AgentCore code interpreter. Create builds it only when it is not already usable; a change to a build " +
			"input rebuilds it in place. Hand `template_ref` to whatever starts sandboxes.",
		Attributes: withTagAttributes(map[string]schema.Attribute{
			// No plan modifiers: ModifyPlan plans these attributes itself (resource_template_plan.go).
			"id": schema.StringAttribute{Computed: true, MarkdownDescription: "Same as `template_id`."},
			"backend": schema.StringAttribute{Required: true,
				MarkdownDescription: "Sandbox backend: " + backtickList(backends.All) + ". (`provider` is a reserved name in Terraform.)",
				Validators:          []validator.String{backendOneOf(backends.All)}},
			"template_id": schema.StringAttribute{Required: true,
				MarkdownDescription: "Template name: " + templateNames(backends.All) + ". " +
					templateIDRules() + ". Changing it replaces the resource."},
			"image": schema.StringAttribute{Optional: true,
				MarkdownDescription: "Container image to build from, e.g. `python:3.12` or a private ECR/GCR/registry image (see `registry_auth`)" + usedBy("image") + "."},
			"registry_auth": registryAuthSchema(),
			"packages": schema.ListAttribute{Optional: true, ElementType: types.StringType,
				MarkdownDescription: "Python packages baked into the template (`pip install`), e.g. `pandas==2.2.3`" + usedBy("packages") + "."},
			"start_cmd": schema.StringAttribute{Optional: true,
				MarkdownDescription: "Command every sandbox of the template starts with" + usedBy("start_cmd") + ". Unset, with `image`: the backend's " +
					"code-interpreter start command, which only that backend's code-interpreter images contain (" + defaultStartCmds() + "). " +
					"Any other image needs its own start command, or `\"\"` for none. It starts after the steps, so it can run what " +
					"they install: E2B runs it as the last `user` step's user; OpenSandbox starts it (as `sh -c`) in the builder " +
					"sandbox, detached through execd with `sandbox_env`, and it must keep running (a sandbox ends with its " +
					"entrypoint); a snapshot keeps no process, so whoever starts sandboxes from it passes `sandbox_entrypoint`."},
			"ready_cmd": schema.StringAttribute{Optional: true,
				MarkdownDescription: "Command that succeeds once a sandbox is ready" + usedBy("ready_cmd") + ". Defaults to the code-interpreter readiness check " +
					"on E2B; OpenSandbox runs it after the steps and the start command until it succeeds, before the snapshot, and " +
					"checks nothing without it."},
			"ready_check":      readyCheckAttribute(),
			"steps":            stepsAttribute(),
			"min_free_disk_mb": minFreeDiskAttribute(),
			"cpu_count": schema.Int64Attribute{Optional: true,
				MarkdownDescription: fmt.Sprintf("vCPUs per sandbox%s. Defaults to %d.", usedBy("cpu_count"), builders.DefaultSandboxCPUCount),
				Validators:          []validator.Int64{int64validator.AtLeast(1)}}, // a set size is positive; E2B's own rules are its Check
			"memory_mb": schema.Int64Attribute{Optional: true,
				MarkdownDescription: fmt.Sprintf("Memory per sandbox in MiB%s. Defaults to %d.", usedBy("memory_mb"), builders.DefaultSandboxMemoryMB),
				Validators:          []validator.Int64{int64validator.AtLeast(1)}},
			"disk_gb": schema.Int64Attribute{Optional: true,
				MarkdownDescription: "Disk per sandbox in GB" + usedBy("disk_gb") + ". Unset: the backend's default.",
				Validators:          []validator.Int64{int64validator.AtLeast(1)}},
			"gpu_count": schema.Int64Attribute{Optional: true,
				MarkdownDescription: "GPUs per sandbox" + usedBy("gpu_count") + ". Unset: none.",
				Validators:          []validator.Int64{int64validator.AtLeast(0)}},
			"base_template": schema.StringAttribute{Optional: true,
				MarkdownDescription: "An existing template to build on instead of `image`" + usedBy("base_template") + ", such as E2B's " +
					"`code-interpreter-v1`: E2B's SDK calls it `fromTemplate` and documents it for customising E2B's own templates. " +
					"Add `packages` and `steps` to it. With `start_cmd` or `ready_cmd`, set both: E2B replaces the base's together."},
			"dockerfile": schema.StringAttribute{Optional: true, DeprecationMessage: builders.DeprecationMessage("dockerfile"),
				MarkdownDescription: "**Deprecated**: Dockerfile content to build from" + usedBy("dockerfile") + ". Use `image`, `packages` and `steps`."},
			"force_rebuild": schema.BoolAttribute{Optional: true, Computed: true, Default: booldefault.StaticBool(false),
				MarkdownDescription: "Build on create even when a usable template with this id already exists, bypassing build caches" + usedBy("force_rebuild") + "."},
			"keep_remotely": schema.BoolAttribute{Optional: true, Computed: true, Default: booldefault.StaticBool(false),
				MarkdownDescription: "Keep the remote template on destroy (only forget it). Changing it makes no API call."},
			"rebuild_triggers": schema.MapAttribute{Optional: true, ElementType: types.StringType,
				MarkdownDescription: "Arbitrary values whose change rebuilds the template, e.g. a hash of files baked into the image."},
			"timeouts": timeouts.Attributes(ctx, timeouts.Opts{Create: true, Update: true, Delete: true,
				CreateDescription: "Build timeout on create, default `" + defaultCreateTimeout + "`.",
				UpdateDescription: "Rebuild timeout, default `" + defaultUpdateTimeout + "`.",
				DeleteDescription: "Delete timeout, default `" + defaultDeleteTimeout + "`."}),

			"template_ref": schema.SingleNestedAttribute{Computed: true,
				MarkdownDescription: "What consumers pass to their sandbox backend. Null when the backend has no templates (`UNSUPPORTED`).",
				Attributes: map[string]schema.Attribute{
					"provider": schema.StringAttribute{Computed: true, MarkdownDescription: "Backend the value belongs to."},
					"value": schema.StringAttribute{Computed: true, MarkdownDescription: "The template id: " + templateNames(backends.All) +
						"; never a raw snapshot id. On " + namingBuilds() + ", the name of the build sandboxes start from (`build_id`), " +
						"which each build changes: unknown in a plan that builds, so consumers that reference it follow each build."},
				}},
			"sandbox_entrypoint": schema.ListAttribute{Computed: true, ElementType: types.StringType,
				MarkdownDescription: "OpenSandbox: the `entrypoint` to pass when starting a sandbox from the snapshot. A snapshot keeps " +
					"files, not processes: without an entrypoint a restored sandbox runs `tail -f /dev/null` and nothing else. It is " +
					"the builder sandbox's: `[\"/opt/code-interpreter/code-interpreter.sh\"]` when `start_cmd` is unset, " +
					"`[\"tail\", \"-f\", \"/dev/null\"]` for `start_cmd = \"\"`, else `[\"sh\", \"-c\", start_cmd]`. Known at plan " +
					"time. Null for other backends."},
			"status": schema.StringAttribute{Computed: true,
				MarkdownDescription: "Outcome of the last build: `SUCCESS`, `SKIPPED` (already usable), `UNSUPPORTED` or `FAILED`; " +
					"`SUPERSEDED` when a refresh finds the template serving a build of other inputs (another configuration or a " +
					"manual build replaced it), which the next apply rebuilds; `INACTIVE` when a refresh finds the build asleep (the backend " +
					"deactivated it for disuse), which the next apply activates without building (planned as `SKIPPED`); `BUILDING` while a create waits for its build."},
			"detail": schema.StringAttribute{Computed: true, MarkdownDescription: "Human-readable detail of the last build."},
			"stage":  schema.StringAttribute{Computed: true, MarkdownDescription: "Where the last build stopped, when it did not succeed (e.g. `REGISTRY_AUTH`, `TEMPLATE_BUILD`, `TIMEOUT`)."},
			"logs": schema.ListAttribute{Computed: true, ElementType: types.StringType,
				MarkdownDescription: fmt.Sprintf("Last %d lines of the last build's log when that build failed; empty after a success (the backend keeps the full log).", maxLogLines)},
			"last_built_at": schema.StringAttribute{Computed: true, MarkdownDescription: "RFC 3339 time of the last build (or of the check that found the template usable)."},
			"build_id": schema.StringAttribute{Computed: true,
				MarkdownDescription: "The build sandboxes of the template start from, as this resource last built or adopted it. " +
					"Null on backends that do not tell builds apart; an import records the build served when it is read. A refresh notices when " +
					"the template serves another build (another configuration or a manual build replaced it): the next plan rebuilds it " +
					"from this configuration, saying so. A `candidate` records its own build, which only `build_ref` starts, and " +
					"follows it while it exists."},

			"image_digest":       imageDigestAttribute(),
			"image_digest_check": imageDigestCheckAttribute(),
		}),
	}
	maps.Copy(s.Attributes, stepsOutputAttributes())
	return s
}

func registryAuthSchema() schema.Attribute {
	secretPair := func(name, description string) (schema.StringAttribute, schema.StringAttribute, schema.Int64Attribute) {
		plain := schema.StringAttribute{Optional: true, Sensitive: true, // exactly one of it and its twin: validateRegistryAuth
			MarkdownDescription: description + " Stored in state (sensitive); prefer `" + name + "_wo` on Terraform/OpenTofu >= 1.11."}
		writeOnly := schema.StringAttribute{Optional: true, Sensitive: true, WriteOnly: true,
			MarkdownDescription: description + " Write-only: never stored in state (Terraform/OpenTofu >= 1.11). Bump `" + name + "_wo_version` to rotate it."}
		version := schema.Int64Attribute{Optional: true,
			MarkdownDescription: "Change to tell the provider `" + name + "_wo` changed; it is used by the next build."}
		return plain, writeOnly, version
	}
	basicPassword, basicPasswordWO, basicPasswordVersion := secretPair("password", "Registry password or token.")
	awsSecret, awsSecretWO, awsSecretVersion := secretPair("secret_access_key", "AWS secret access key.")
	gcpKey, gcpKeyWO, gcpKeyVersion := secretPair("service_account_json", "Service-account key: JSON content, or a path to a key file.")
	gcpKey.Validators = append(gcpKey.Validators, keyPathExists{})
	gcpKeyWO.Validators = append(gcpKeyWO.Validators, keyPathExists{})

	return schema.SingleNestedAttribute{Optional: true,
		MarkdownDescription: "Credentials for a private `image`" + usedBy("registry_auth") + ": exactly one of `basic`, `aws` or `gcp`. " +
			registryExchanges() + " Changing credentials alone does not rebuild.",
		Attributes: map[string]schema.Attribute{
			"basic": schema.SingleNestedAttribute{Optional: true, MarkdownDescription: "Username and password login.",
				Attributes: map[string]schema.Attribute{
					"username":            schema.StringAttribute{Required: true, MarkdownDescription: "Registry username."},
					"password":            basicPassword,
					"password_wo":         basicPasswordWO,
					"password_wo_version": basicPasswordVersion,
				}},
			"aws": schema.SingleNestedAttribute{Optional: true, MarkdownDescription: "IAM credentials for Amazon ECR.",
				Attributes: map[string]schema.Attribute{
					"access_key_id":                schema.StringAttribute{Required: true, MarkdownDescription: "AWS access key id."},
					"secret_access_key":            awsSecret,
					"secret_access_key_wo":         awsSecretWO,
					"secret_access_key_wo_version": awsSecretVersion,
					"region":                       schema.StringAttribute{Required: true, MarkdownDescription: "Region of the registry (ECR tokens are regional)."},
				}},
			"gcp": schema.SingleNestedAttribute{Optional: true, MarkdownDescription: "Google service account for Artifact Registry / Container Registry.",
				Attributes: map[string]schema.Attribute{
					"service_account_json":            gcpKey,
					"service_account_json_wo":         gcpKeyWO,
					"service_account_json_wo_version": gcpKeyVersion,
				}},
		},
	}
}

// withTagAttributes adds tags, candidate and build_ref to the template resource's attributes.
func withTagAttributes(attrs map[string]schema.Attribute) map[string]schema.Attribute {
	maps.Copy(attrs, map[string]schema.Attribute{
		builders.FieldTags: schema.SetAttribute{Optional: true, ElementType: types.StringType,
			MarkdownDescription: "Extra tags every build gets" + onlyTagging() + ", e.g. a release or a git SHA: consumers start the " +
				"build a tag points at as `<template_id>:<tag>`. Lower-case letters, digits, `.`, `-` and `_`; not a UUID, not the " +
				"tag the plain template name starts (" + liveTags() + ": see `candidate`), not one of the provider's own `inputs-*`. " +
				"Changing only `tags` builds nothing: the added tags are given to the current build; removed ones stay on the " +
				"builds that have them (`sandbox_template_tag` manages a tag that moves)."},
		builders.FieldCandidate: schema.BoolAttribute{Optional: true, Computed: true, Default: booldefault.StaticBool(false),
			MarkdownDescription: "Build candidates" + onlyTagging() + ": builds get `tags` but not the tag the plain template name " +
				"starts (" + liveTags() + "), so whoever starts sandboxes from `template_ref` keeps the build it had. Consumers of " +
				"the candidate pass `build_ref`, or a tag a `sandbox_template_tag` points at it (promotion). The resource then follows " +
				"its own build, not what the plain name starts. Turning it off gives the current build the plain name's tag, " +
				"without building."},
		"build_ref": schema.SingleNestedAttribute{Computed: true,
			MarkdownDescription: "The immutable reference to exactly `build_id`" + onlyTagging() + ": `value` is `<template_id>:<build_id>`, " +
				"which starts that build as long as it exists, whatever tags move. A `sandbox_template_tag` promotes it with " +
				"`target = build_id`. On " + namingBuilds() + ", `build_id` itself, as `template_ref`. Null on other backends without build tags.",
			Attributes: map[string]schema.Attribute{
				"provider": schema.StringAttribute{Computed: true, MarkdownDescription: "Backend the value belongs to."},
				"value":    schema.StringAttribute{Computed: true, MarkdownDescription: "`<template_id>:<build_id>`."},
			}},
	})
	return attrs
}

// readyCheckAttribute is ready_check: the SDK's wait helpers, typed.
func readyCheckAttribute() schema.Attribute {
	return schema.SingleNestedAttribute{Optional: true,
		MarkdownDescription: "A typed ready command, instead of `ready_cmd`: exactly one of `port`, `url`, `process`, `file` or " +
			"`timeout`, rendered as E2B's SDK renders its wait helpers (`waitForPort`, `waitForURL`, `waitForProcess`, " +
			"`waitForFile`, `waitForTimeout`)" + usedBy("ready_check") + ".",
		Attributes: map[string]schema.Attribute{
			"port": schema.Int64Attribute{Optional: true, MarkdownDescription: "Ready once something listens on this TCP port."},
			"url":  schema.StringAttribute{Optional: true, MarkdownDescription: "Ready once this URL answers `status_code`."},
			"status_code": schema.Int64Attribute{Optional: true,
				MarkdownDescription: "The HTTP status `url` must answer. Default `200`."},
			"process": schema.StringAttribute{Optional: true, MarkdownDescription: "Ready once a process of this name runs (`pgrep`)."},
			"file":    schema.StringAttribute{Optional: true, MarkdownDescription: "Ready once this file exists."},
			"timeout": schema.StringAttribute{Optional: true, MarkdownDescription: "Ready after this long, e.g. `\"20s\"` (whole seconds, at least 1)."},
		},
	}
}

func minFreeDiskAttribute() schema.Attribute {
	return schema.Int64Attribute{Optional: true,
		MarkdownDescription: "Free disk space, in MiB, E2B leaves in the template after the steps (E2B's SDK `minFreeDiskMb`, sent " +
			"at registration)" + usedBy("min_free_disk_mb") + ". Unset: the team's default; `0`: no minimum.",
		Validators: []validator.Int64{int64validator.AtLeast(0)}}
}

func stepsOutputAttributes() map[string]schema.Attribute {
	return map[string]schema.Attribute{
		"files_hash": schema.StringAttribute{Computed: true,
			MarkdownDescription: "Digest of the files the `file` steps place (content, mode and names), read at plan time: " +
				"a change rebuilds the template. Known after apply when the plan builds the template (a create or a rebuild): " +
				"the build places the files as they are then, so a file that a resource of the configuration writes during " +
				"the apply, or that is edited after the plan, is built and recorded. Null without `file` steps."},
		// Sensitive as a whole: Terraform strips the marks of sensitive variables before a provider
		// sees the configuration, so the provider cannot tell which values came from one.
		"sandbox_env": schema.MapAttribute{Computed: true, Sensitive: true, ElementType: types.StringType,
			MarkdownDescription: "The environment the `env` steps set, which the template's sandboxes do not get by " +
				"themselves: `env` steps apply to the later steps of the build only. Pass it when starting a sandbox: on E2B " +
				"as `envs` of `Sandbox.create` (the API's `envVars`; a template keeps its user and working directory, not " +
				"its environment), on OpenSandbox as `env` when starting one from the snapshot (a snapshot keeps files " +
				"only). Values are as written: on E2B the build expanded a `$NAME` in a value, a sandbox gets it literally. " +
				"Known at plan time. Null without `env` steps and for backends that do not build. Sensitive, whatever its values: an `env` step is where " +
				"API keys go, and a provider is never told which configuration values are sensitive, so the plan " +
				"shows `(sensitive value)` and an `output` of it needs `sensitive = true`."},
		"sandbox_workdir": schema.StringAttribute{Computed: true,
			MarkdownDescription: "OpenSandbox: the working directory the last `workdir` step set (absolute), for the commands " +
				"run in a sandbox from the snapshot (execd's `cwd`). Known at plan time. Null without `workdir` steps and for other backends."},
		"sandbox_user": schema.StringAttribute{Computed: true,
			MarkdownDescription: "OpenSandbox: the user the last `user` step set, to run the sandbox's commands as (execd " +
				"takes its uid: `id -u <user>`). Known at plan time. Null without `user` steps (root) and for other backends."},
	}
}

// image_digest_check modes.
const (
	digestCheckOff    = "off"
	digestCheckWarn   = "warn"
	digestCheckStrict = "strict"
)

// defaultDigestCheck is off: with it on, every plan asks the image's registry, which a plan run
// away from the registry (or a hermetic test suite) cannot reach.
const defaultDigestCheck = digestCheckOff

func imageDigestAttribute() schema.Attribute {
	return schema.StringAttribute{Computed: true,
		MarkdownDescription: "Digest (`sha256:...`) `image`'s tag resolved to when the template was built, with `image_digest_check` " +
			"on; null otherwise. The build pulls exactly this digest."}
}

func imageDigestCheckAttribute() schema.Attribute {
	return schema.StringAttribute{Optional: true, Computed: true, Default: stringdefault.StaticString(defaultDigestCheck),
		MarkdownDescription: "Rebuild when `image`'s tag moves (`python:3.12`, `:latest`, a CI-pushed `:main`). `warn`: every plan " +
			"resolves the tag with the build's `registry_auth` and plans a rebuild when the digest moved; a registry it " +
			"cannot reach is a warning. `strict`: the same, and an unreachable registry fails the plan. `off` (default): " +
			"no registry request at plan; the tag is built as it is. An image pinned by digest (`@sha256:`) never moves. " +
			"With it on, a plan contacts `image`'s registry over HTTPS (plain HTTP only for a registry on a loopback address; " +
			"never a link-local one) and the token service that registry names, all within the provider's `request_timeout`. " +
			"`registry_auth` is sent only once the registry asks for it: a basic login to the registry and its token service; " +
			"with `aws`, an ECR token minted at plan, to its ECR registry only; with `gcp`, a Google access token " +
			"(scope `cloud-platform.read-only`) minted at plan, to Google's hosts only. Anything else is refused, naming the host.",
		Validators: []validator.String{stringvalidator.OneOf(digestCheckOff, digestCheckWarn, digestCheckStrict)}}
}
