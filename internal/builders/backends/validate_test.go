package backends

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders"
	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders/bedrock"
	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders/e2b"
	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders/opensandbox"
	"github.com/sandboxtf/terraform-provider-sandbox/internal/emulator/awsemu"
)

func TestTemplateSpecValidation(t *testing.T) {
	basic := &builders.BasicAuth{Username: "u", Password: builders.NewSecret("p")}
	tests := []struct {
		name    string
		backend *builders.Backend
		spec    builders.TemplateSpec
		wantErr []string // substrings; none means valid
	}{
		{"image only", &e2b.Backend, builders.TemplateSpec{TemplateID: "py", Image: "python:3.12"}, nil},
		{"full", &e2b.Backend, builders.TemplateSpec{TemplateID: "data-science", Image: "123456789012.dkr.ecr.us-east-1.amazonaws.com/ds:1.4",
			RegistryAuth: basic, Packages: []string{"pandas==2.2.3", "numpy"}, StartCmd: ptr("run"), ReadyCmd: "ready", CPUCount: 4, MemoryMB: 2048}, nil},
		{"digest image", &e2b.Backend, builders.TemplateSpec{TemplateID: "py", Image: "ghcr.io/org/img@sha256:" + strings.Repeat("a", 64)}, nil},
		{"base_template", &e2b.Backend, builders.TemplateSpec{TemplateID: "py", BaseTemplate: "base"}, nil},
		{"deprecated dockerfile", &e2b.Backend, builders.TemplateSpec{TemplateID: "py", Dockerfile: "FROM python:3.12"}, nil},
		{"bedrock needs no source", &bedrock.Backend, builders.TemplateSpec{TemplateID: "aws.codeinterpreter.v1"}, nil},
		{"empty template_id", &e2b.Backend, builders.TemplateSpec{Image: "python"}, []string{"template_id"}},
		{"upper-case template_id", &e2b.Backend, builders.TemplateSpec{TemplateID: "Py", Image: "python"}, []string{`template_id: "Py" is not valid for e2b`}},
		{"template_id with space", &opensandbox.Backend, builders.TemplateSpec{TemplateID: "a b", Image: "python"}, []string{"template_id"}},
		{"template_id too long", &e2b.Backend, builders.TemplateSpec{TemplateID: strings.Repeat("a", 129), Image: "python"}, []string{"template_id"}},
		{"bedrock id shape", &bedrock.Backend, builders.TemplateSpec{TemplateID: "my-template"}, []string{"code interpreter id"}},
		{"no source", &e2b.Backend, builders.TemplateSpec{TemplateID: "py"}, []string{"image: is required: set one of image, base_template, dockerfile"}},
		{"two sources", &e2b.Backend, builders.TemplateSpec{TemplateID: "py", Image: "python", BaseTemplate: "base"}, []string{"base_template: set exactly one of image, base_template, dockerfile, got image and base_template"}},
		{"opensandbox needs image", &opensandbox.Backend, builders.TemplateSpec{TemplateID: "py", Dockerfile: "FROM x"}, []string{"dockerfile: the OpenSandbox backend does not build from dockerfile", "set image"}},
		{"opensandbox has no base templates", &opensandbox.Backend, builders.TemplateSpec{TemplateID: "py", BaseTemplate: "b"}, []string{"base_template: the OpenSandbox backend does not build from base_template"}},
		{"e2b checks its Dockerfile", &e2b.Backend, builders.TemplateSpec{TemplateID: "py", Dockerfile: "FROM python\nCOPY . /app"}, []string{"dockerfile: COPY needs files from a build context"}},
		{"bad image", &e2b.Backend, builders.TemplateSpec{TemplateID: "py", Image: "Python:3.12"}, []string{"not a valid image reference"}},
		{"image with spaces", &e2b.Backend, builders.TemplateSpec{TemplateID: "py", Image: "python 3"}, []string{"not a valid image reference"}},
		{"auth without image", &e2b.Backend, builders.TemplateSpec{TemplateID: "py", BaseTemplate: "b", RegistryAuth: basic}, []string{"registry_auth: only applies to image"}},
		{"incomplete auth", &e2b.Backend, builders.TemplateSpec{TemplateID: "py", Image: "python", RegistryAuth: &builders.AWSAuth{AccessKeyID: "a", SecretAccessKey: builders.NewSecret("s")}}, []string{"region: is required"}},
		{"empty package", &e2b.Backend, builders.TemplateSpec{TemplateID: "py", Image: "python", Packages: []string{"numpy", " "}}, []string{"packages[1]"}},
		{"multi-line package", &e2b.Backend, builders.TemplateSpec{TemplateID: "py", Image: "python", Packages: []string{"numpy\nrm -rf /"}}, []string{"packages[0]"}},
		{"cpu below minimum", &e2b.Backend, builders.TemplateSpec{TemplateID: "py", Image: "python", CPUCount: -1}, []string{"cpu_count: must be between 1 and 32, got -1"}},
		{"cpu odd", &e2b.Backend, builders.TemplateSpec{TemplateID: "py", Image: "python", CPUCount: 3}, []string{"cpu_count: must be 1 or an even number"}},
		{"cpu above 32", &e2b.Backend, builders.TemplateSpec{TemplateID: "py", Image: "python", CPUCount: 34}, []string{"cpu_count: must be between 1 and 32, got 34"}},
		{"memory odd", &e2b.Backend, builders.TemplateSpec{TemplateID: "py", Image: "python", MemoryMB: 1025}, []string{"memory_mb: must be an even number of MiB, got 1025"}},
		{"base template with ready_cmd alone", &e2b.Backend, builders.TemplateSpec{TemplateID: "py", BaseTemplate: "base", ReadyCmd: "true"}, []string{e2b.StartReadyWithBaseTemplate}},
		{"base template with start_cmd alone", &e2b.Backend, builders.TemplateSpec{TemplateID: "py", BaseTemplate: "base", StartCmd: ptr("")}, []string{e2b.StartReadyWithBaseTemplate}},
		{"memory below minimum", &e2b.Backend, builders.TemplateSpec{TemplateID: "py", Image: "python", MemoryMB: 127}, []string{"memory_mb: must be at least 128, got 127"}},
		{"e2b tags and a candidate", &e2b.Backend, builders.TemplateSpec{TemplateID: "py", Image: "python", Tags: []string{"v1.4", "git-0a1b2c"}, Candidate: true}, nil},
		{"e2b tag rule", &e2b.Backend, builders.TemplateSpec{TemplateID: "py", Image: "python", Tags: []string{"Prod"}}, []string{`tags: "Prod" is not a valid E2B tag`}},
		{"reserved inputs tag", &e2b.Backend, builders.TemplateSpec{TemplateID: "py", Image: "python", Tags: []string{"inputs-1"}}, []string{`tags: "inputs-1" is reserved`}},
		{"default among tags", &e2b.Backend, builders.TemplateSpec{TemplateID: "py", Image: "python", Tags: []string{"default"}}, []string{`tags: "default" is the tag of the build the plain template name starts`}},
		{"opensandbox has no tags", &opensandbox.Backend, builders.TemplateSpec{TemplateID: "py", Image: "python", Tags: []string{"v1"}},
			[]string{"tags: the OpenSandbox backend has no build tags"}},
		{"bedrock has no candidates", &bedrock.Backend, builders.TemplateSpec{TemplateID: "aws.codeinterpreter.v1", Candidate: true},
			[]string{"candidate: the Bedrock AgentCore backend has no build tags"}},
		{"every problem at once", &e2b.Backend, builders.TemplateSpec{TemplateID: "X", Image: "bad image", MemoryMB: 1}, []string{"template_id", "image:", "memory_mb"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.spec.Validate(tt.backend).Err()
			if len(tt.wantErr) == 0 {
				if err != nil {
					t.Fatalf("unexpected error: %v", err)
				}
				return
			}
			if err == nil {
				t.Fatalf("want an error containing %q", tt.wantErr)
			}
			for _, want := range tt.wantErr {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("error %q does not contain %q", err, want)
				}
			}
		})
	}
}

func TestTemplateSpecWarnings(t *testing.T) {
	spec := builders.TemplateSpec{TemplateID: "py", Image: "python", ReadyCmd: "x", CPUCount: 2, Dockerfile: "FROM x", BaseTemplate: "b"}
	fields := func(ws []builders.Warning) string {
		var names []string
		for _, w := range ws {
			names = append(names, w.Field)
		}
		return strings.Join(names, ",")
	}
	if got := fields(spec.Warnings(&e2b.Backend)); got != "dockerfile" {
		t.Errorf("e2b warnings = %s, want the one deprecation (base_template is E2B's documented fromTemplate)", got)
	}
	if got := fields(spec.Warnings(&opensandbox.Backend)); got != "cpu_count,base_template,dockerfile" {
		t.Errorf("opensandbox warnings = %s (it runs ready_cmd before the snapshot)", got)
	}
	ws := spec.Warnings(&opensandbox.Backend)
	if !strings.Contains(ws[0].Message, "cpu_count is ignored by opensandbox") {
		t.Errorf("warning must name the field and backend: %q", ws[0].Message)
	}
	if got := (builders.TemplateSpec{TemplateID: "py", Image: "python"}).Warnings(&e2b.Backend); len(got) != 0 {
		t.Errorf("a plain spec has no warnings, got %v", got)
	}
}

func ptr(s string) *string { return &s }

func TestNamed(t *testing.T) {
	for _, b := range All {
		if got, err := Named(string(b.Name)); err != nil || got != b {
			t.Errorf("Named(%q) = %v, %v", b.Name, got, err)
		}
	}
	if _, err := Named("E2B"); err == nil {
		t.Error("names are case-sensitive: E2B must be rejected")
	}
}

// TestDescriptorsAreComplete: every listed backend names itself, has a template-id rule and a
// constructor, ignores only fields the spec has, builds from a source it does not ignore, and has
// complete tag rules when it has tags.
func TestDescriptorsAreComplete(t *testing.T) {
	for _, b := range All {
		if b.Name == "" || b.Title == "" || b.TemplateNoun == "" || b.TemplateID.Pattern == nil || b.TemplateID.Text == "" || b.Open == nil {
			t.Errorf("%q: incomplete descriptor %+v", b.Name, b)
		}
		for field := range b.Ignored {
			if !slices.Contains(builders.SpecFields, field) {
				t.Errorf("%s ignores %q, which is not a spec field", b.Name, field)
			}
		}
		for _, source := range b.Sources {
			if !b.Uses(source) {
				t.Errorf("%s builds from %s yet ignores it", b.Name, source)
			}
		}
		if r := b.Tags; r != nil && (r.Live == "" || r.Reserved == "" || r.Tag == nil || r.Target == nil || r.Ref == nil ||
			r.Tag(r.Live) != "" || r.TagProblem(r.Reserved+"x") == "") {
			t.Errorf("%s: incomplete tag rules %+v (its live tag must be a valid tag, its reserved prefix refused)", b.Name, r)
		}
	}
}

// TestCapabilitiesMatchBuilders: what a descriptor says its backend can do is what its builder
// does, each capability stated once and checked here:
//   - Lists exactly when the builder is a builders.Lister;
//   - RegistryLogin exactly when the backend cannot open without the provider's registry login
//     exchanger (Env.RegistryLogin);
//   - Tags exactly when the builder is a builders.Tagger, and then an InputsChecker too (the
//     reserved tags record each build's inputs) and a TagServingChecker (a refresh checks the
//     record's own tags);
//   - Builds (Sources) exactly when the builder is a builders.Deleter: what it built, destroy removes;
//   - ConsumersPassStepsContext exactly when SandboxEntrypoint is set (a template that keeps no
//     process state keeps neither), and only for a backend that uses steps;
//   - Checks exactly when the builder is a builders.SandboxStarter;
//   - RefNamesBuild exactly when TemplateOfBuild is set.
func TestCapabilitiesMatchBuilders(t *testing.T) {
	awsemu.IsolateSDK(t, nil) // bedrock's Open loads the AWS configuration: never the machine's own
	settings := builders.Settings{Values: map[string]string{
		"e2b.api_key": "key", "e2b.api_url": "http://127.0.0.1:1", "opensandbox.domain": "127.0.0.1:1", "aws.region": "us-east-1",
		"daytona.api_key": "key"}}
	login := func(context.Context, string, builders.RegistryAuth) (string, builders.Secret, error) {
		return "", builders.Secret{}, nil
	}
	for _, b := range All {
		built, err := b.Open(t.Context(), builders.Env{Settings: settings, RegistryLogin: login})
		if err != nil {
			t.Fatalf("%s: Open with every setting: %v (give the test a value for the setting it names)", b.Name, err)
		}
		if _, lists := built.(builders.Lister); lists != b.Lists {
			t.Errorf("%s: Lists = %v, but its builder is a builders.Lister: %v", b.Name, b.Lists, lists)
		}
		_, err = b.Open(t.Context(), builders.Env{Settings: settings})
		if needsLogin := err != nil; needsLogin != b.RegistryLogin {
			t.Errorf("%s: RegistryLogin = %v, but opening it without a registry login fails: %v (%v)", b.Name, b.RegistryLogin, needsLogin, err)
		}
		_, tagger := built.(builders.Tagger)
		if hasTags := b.Tags != nil; hasTags != tagger {
			t.Errorf("%s: Tags set = %v, but its builder is a builders.Tagger: %v", b.Name, hasTags, tagger)
		}
		if _, checker := built.(builders.InputsChecker); b.Tags != nil && !checker {
			t.Errorf("%s: its tag rules reserve %q for each build's inputs, but its builder is no builders.InputsChecker", b.Name, b.Tags.Reserved)
		}
		if _, checker := built.(builders.TagServingChecker); b.Tags != nil && !checker {
			t.Errorf("%s: it has tags, but its builder is no builders.TagServingChecker: a refresh would not see its tags move", b.Name)
		}
		if _, deleter := built.(builders.Deleter); deleter != b.Builds() {
			t.Errorf("%s: Builds() = %v (Sources %v), but its builder is a builders.Deleter: %v", b.Name, b.Builds(), b.Sources, deleter)
		}
		if names := b.TemplateOfBuild != nil; names != b.RefNamesBuild {
			t.Errorf("%s: RefNamesBuild = %v, but TemplateOfBuild set = %v: a check must tell the template of a build's name", b.Name, b.RefNamesBuild, names)
		}
		if entrypoint := b.SandboxEntrypoint != nil; entrypoint != b.ConsumersPassStepsContext {
			t.Errorf("%s: ConsumersPassStepsContext = %v, but SandboxEntrypoint set = %v: a template keeps both its process and "+
				"the steps' context, or neither", b.Name, b.ConsumersPassStepsContext, entrypoint)
		}
		if _, starter := built.(builders.SandboxStarter); starter != b.Checks {
			t.Errorf("%s: Checks = %v, but its builder is a builders.SandboxStarter: %v", b.Name, b.Checks, starter)
		}
		if b.ConsumersPassStepsContext && !b.Uses("steps") {
			t.Errorf("%s: consumers pass the steps' context, but it ignores steps", b.Name)
		}
	}
}

// TestImportDefaultIsListed: an import ID without a backend names one of All.
func TestImportDefaultIsListed(t *testing.T) {
	if !slices.Contains(All, ImportDefault) {
		t.Errorf("ImportDefault %s is not in All", ImportDefault.Name)
	}
}
