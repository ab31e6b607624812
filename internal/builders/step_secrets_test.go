package builders

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
)

func revealed(secrets []Secret) []string {
	var out []string
	for _, s := range secrets {
		out = append(out, s.Reveal())
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// TestStepSecretsRule: the credential of a URL's userinfo (its password, or its user name when that
// is all it has) anywhere in a step, and env values from MinEnvSecretLength characters on.
func TestStepSecretsRule(t *testing.T) {
	content := "[global]\nindex-url = https://ci:pipconf-secret@pypi.example.com/simple\n"
	tests := []struct {
		name string
		step BuildStep
		want []string
	}{
		{"git_clone password", BuildStep{GitClone: &GitCloneStep{URL: "https://x-access-token:ghs_Tok3n@github.com/org/app"}}, []string{"ghs_Tok3n"}},
		{"git_clone token as user name", BuildStep{GitClone: &GitCloneStep{URL: "https://ghp_Tok3n@github.com/org/app"}}, []string{"ghp_Tok3n"}},
		{"short password counts", BuildStep{GitClone: &GitCloneStep{URL: "https://me:pw@git.example.com/app"}}, []string{"pw"}},
		{"password holding an @", BuildStep{GitClone: &GitCloneStep{URL: "https://me:p@ss@git.example.com/app"}}, []string{"p@ss"}},
		{"percent-encoded password", BuildStep{GitClone: &GitCloneStep{URL: "https://me:p%40ss%2F1@git.example.com/app"}}, []string{"p%40ss%2F1", "p@ss/1"}},
		{"ssh user is a login", BuildStep{GitClone: &GitCloneStep{URL: "ssh://git@github.com/org/app"}}, nil},
		{"scp-like ssh", BuildStep{GitClone: &GitCloneStep{URL: "git@github.com:org/app.git"}}, nil},
		{"no userinfo", BuildStep{GitClone: &GitCloneStep{URL: "https://github.com/org/app?ref=a@b"}}, nil},
		{"run command URLs", BuildStep{Run: &RunStep{Command: "pip install --index-url 'https://ci:idx-secret@pypi.example.com/simple' x && " +
			"curl -fsS https://dl-token@dl.example.com/a.tgz | tar xz"}}, []string{"dl-token", "idx-secret"}},
		{"pip package URL", BuildStep{Pip: &PipStep{Packages: []string{"numpy", "git+https://pip-token@github.com/org/lib"}}}, []string{"pip-token"}},
		{"npm package URL", BuildStep{Npm: &NpmStep{Packages: []string{"git+https://u:npm-secret@github.com/org/lib.git"}}}, []string{"npm-secret"}},
		{"inline file content", BuildStep{File: &FileStep{Content: &content, Destination: "/etc/pip.conf"}}, []string{"pipconf-secret"}},
		{"env values from the threshold on", BuildStep{Env: map[string]string{"MPLBACKEND": "Agg", "N": "1", "LANG": "C.UTF-8",
			"API_TOKEN": "sk-12345", "DATABASE_URL": "postgres://app:pw@db/app"}},
			[]string{"postgres://app:pw@db/app", "pw", "sk-12345"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := revealed(tt.step.Secrets()); !slices.Equal(got, tt.want) {
				t.Errorf("Secrets() = %q, want %q", got, tt.want)
			}
		})
	}
	if got := len([]rune("C.UTF-8")); got >= MinEnvSecretLength {
		t.Fatalf("the threshold case is wrong: C.UTF-8 has %d characters", got)
	}
}

// TestStepSecretsOfASpec: the spec's steps, its packages and its own commands count.
func TestStepSecretsOfASpec(t *testing.T) {
	start := "python -m app --config https://cfg-token@cfg.example.com/app.json"
	spec := TemplateSpec{Packages: []string{"git+https://pkg-token@github.com/org/lib"}, StartCmd: &start,
		ReadyCmd: "curl -f https://u:ready-secret@localhost:8000/health",
		Steps:    []BuildStep{{Env: map[string]string{"API_TOKEN": "env-secret-value"}}}}
	want := []string{"cfg-token", "env-secret-value", "pkg-token", "ready-secret"}
	if got := revealed(spec.StepSecrets()); !slices.Equal(got, want) {
		t.Errorf("StepSecrets() = %q, want %q", got, want)
	}
}

// TestStepDescriptionsHideCredentials: a step's description, which logs and errors quote, shows
// where the credential was, not the credential.
func TestStepDescriptionsHideCredentials(t *testing.T) {
	for step, want := range map[*BuildStep]string{
		{GitClone: &GitCloneStep{URL: "https://x-access-token:ghs_Tok3n@github.com/org/app"}}: "git_clone https://x-access-token:" + Redacted + "@github.com/org/app",
		{Run: &RunStep{Command: "git clone https://ghp_Tok3n@github.com/org/app"}}:            "run `git clone https://" + Redacted + "@github.com/org/app`",
		{GitClone: &GitCloneStep{URL: "ssh://git@github.com/org/app"}}:                        "git_clone ssh://git@github.com/org/app",
	} {
		if got := step.String(); got != want {
			t.Errorf("String() = %q, want %q", got, want)
		}
	}
}

// TestEnsureScrubsStepSecretsFromItsDetail: whatever a backend's error quotes of a step (here the
// failing command, as a server reports it), the result's detail does not show its credential.
func TestEnsureScrubsStepSecretsFromItsDetail(t *testing.T) {
	const token = "ghs_EnsureTok3n"
	spec := TemplateSpec{TemplateID: "py", Image: "python:3.12",
		Steps: []BuildStep{{GitClone: &GitCloneStep{URL: "https://x-access-token:" + token + "@github.com/org/app"}}}}
	f := newFake(func(_ context.Context, _ *fakeBuilder, s TemplateSpec) (TemplateBuildResult, error) {
		return TemplateBuildResult{}, AtStage(StageTemplateBuild, errors.New("step 1 failed: git clone "+s.Steps[0].GitClone.URL+": exit status 128"))
	})
	for name, run := range map[string]func() TemplateBuildResult{
		"Ensure":  func() TemplateBuildResult { return Ensure(context.Background(), f, spec, Observer{}) },
		"Rebuild": func() TemplateBuildResult { return Rebuild(context.Background(), f, spec, Observer{}) },
	} {
		got := run()
		if got.Status != StatusFailed || !strings.Contains(got.Detail, "git clone https://x-access-token:"+Redacted+"@github.com") {
			t.Fatalf("%s = %s %q, want FAILED with the command, its token redacted", name, got.Status, got.Detail)
		}
		if strings.Contains(got.Detail, token) {
			t.Errorf("%s's detail shows the token: %q", name, got.Detail)
		}
	}
}
