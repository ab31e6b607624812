package builders

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestStepValidation(t *testing.T) {
	file := filepath.Join(t.TempDir(), "app.py")
	if err := os.WriteFile(file, []byte("print(1)\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	str := func(s string) *string { return &s }
	tests := []struct {
		name string
		step BuildStep
		want string // "field: message" substring; "" for a valid step
	}{
		{"run", BuildStep{Run: &RunStep{Command: "make", User: "root"}}, ""},
		{"every kind once", BuildStep{File: &FileStep{Source: file, Destination: "/app/", Mode: "0755", Owner: "user:staff"}}, ""},
		{"no kind", BuildStep{Force: true}, "steps[0]: set exactly one of run, apt, pip, npm, env, workdir, user, git_clone, file in each step, got none"},
		{"two kinds", BuildStep{Workdir: str("/app"), User: str("user")}, "steps[0]: set exactly one of"},
		{"empty command", BuildStep{Run: &RunStep{Command: " "}}, "steps[0].run.command: must not be empty"},
		{"run as a bad user", BuildStep{Run: &RunStep{Command: "x", User: "root; rm"}}, `steps[0].run.user: "root; rm" is not a user name`},
		{"apt without packages", BuildStep{Apt: &AptStep{}}, "steps[0].apt.packages: must list at least one package"},
		{"apt version", BuildStep{Apt: &AptStep{Packages: []string{"libgl1=1.7.0-1", "gcc:amd64"}}}, ""},
		{"apt shell", BuildStep{Apt: &AptStep{Packages: []string{"ffmpeg", "x && rm"}}}, `steps[0].apt.packages[1]: "x && rm" is not a Debian package name`},
		{"pip option", BuildStep{Pip: &PipStep{Packages: []string{"-r", "numpy"}}}, `steps[0].pip.packages[0]: "-r" starts with "-"`},
		{"npm spec", BuildStep{Npm: &NpmStep{Packages: []string{"@types/node@20", "lodash@^4"}}}, ""},
		{"npm option", BuildStep{Npm: &NpmStep{Packages: []string{"--prefix=/"}}}, `steps[0].npm.packages[0]: "--prefix=/" starts with "-"`},
		{"empty env", BuildStep{Env: map[string]string{}}, "steps[0].env: must set at least one variable"},
		{"env name", BuildStep{Env: map[string]string{"1X": "a"}}, `steps[0].env: "1X" is not an environment variable name`},
		{"relative workdir", BuildStep{Workdir: str("work")}, ""},
		{"workdir expands", BuildStep{Workdir: str("/a/`id`")}, "steps[0].workdir: \"/a/`id`\" contains one of"},
		{"empty user", BuildStep{User: str("")}, "steps[0].user: must not be empty"},
		{"git option", BuildStep{GitClone: &GitCloneStep{URL: "https://x/y", Branch: "-b"}}, `steps[0].git_clone.branch: "-b" starts with "-"`},
		{"git depth", BuildStep{GitClone: &GitCloneStep{URL: "https://x/y", Depth: -1}}, "steps[0].git_clone.depth: must be at least 1, got -1"},
		{"file with neither", BuildStep{File: &FileStep{Destination: "/x"}}, "steps[0].file: set source (a local file or folder) or content"},
		{"file with both", BuildStep{File: &FileStep{Source: file, Content: str("x"), Destination: "/x"}}, "steps[0].file.content: set source or content, not both"},
		{"missing file", BuildStep{File: &FileStep{Source: file + ".gone", Destination: "/x"}}, "steps[0].file.source: " + file + ".gone: no such file or directory"},
		{"content into a folder", BuildStep{File: &FileStep{Content: str("x"), Destination: "/etc/"}}, `steps[0].file.destination: content needs a file name`},
		{"mode", BuildStep{File: &FileStep{Content: str("x"), Destination: "/x", Mode: "0999"}}, `steps[0].file.mode: "0999" is not an octal file mode`},
		{"owner", BuildStep{File: &FileStep{Content: str("x"), Destination: "/x", Owner: "a:b:c"}}, `steps[0].file.owner: "a:b:c" is not "user" or "user:group"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := TemplateSpec{Steps: []BuildStep{tt.step}}.validateSteps().Err()
			switch {
			case tt.want == "" && got != nil:
				t.Errorf("unexpected problems: %v", got)
			case tt.want != "" && (got == nil || !strings.Contains(got.Error(), tt.want)):
				t.Errorf("problems = %v, want %q", got, tt.want)
			}
		})
	}
}

// TestFingerprintCoversEveryStep: each kind, each option and force changes the fingerprint, and so
// does a file's content; where the files sit on this machine does not.
func TestFingerprintCoversEveryStep(t *testing.T) {
	str := func(s string) *string { return &s }
	no := false
	steps := []BuildStep{
		{Run: &RunStep{Command: "make"}}, {Run: &RunStep{Command: "make", User: "root"}},
		{Apt: &AptStep{Packages: []string{"ffmpeg"}}}, {Apt: &AptStep{Packages: []string{"ffmpeg"}, NoInstallRecommends: true}},
		{Pip: &PipStep{Packages: []string{"numpy"}}}, {Pip: &PipStep{Packages: []string{"numpy"}, Global: &no}},
		{Npm: &NpmStep{Packages: []string{"ts"}}}, {Npm: &NpmStep{Packages: []string{"ts"}, Global: true}},
		{Env: map[string]string{"A": "1"}}, {Env: map[string]string{"A": "2"}},
		{Workdir: str("/a")}, {User: str("user")},
		{GitClone: &GitCloneStep{URL: "u"}}, {GitClone: &GitCloneStep{URL: "u", Branch: "b"}}, {GitClone: &GitCloneStep{URL: "u", Depth: 1}},
		{GitClone: &GitCloneStep{URL: "u", Path: "p"}}, {GitClone: &GitCloneStep{URL: "u", User: "x"}},
		{File: &FileStep{Content: str("x"), Destination: "/d"}}, {File: &FileStep{Content: str("y"), Destination: "/d"}},
		{File: &FileStep{Content: str("x"), Destination: "/d", Mode: "600"}}, {File: &FileStep{Content: str("x"), Destination: "/d", Owner: "u"}},
		{Run: &RunStep{Command: "make"}, Force: true},
	}
	seen := map[string]int{}
	for i, step := range steps {
		fp := TemplateSpec{Image: "python", Steps: []BuildStep{step}}.Fingerprint()
		if j, dup := seen[fp]; dup {
			t.Errorf("steps %d and %d have the same fingerprint: %+v, %+v", j, i, steps[j], step)
		}
		seen[fp] = i
	}

	write := func(dir, content string) string {
		if err := os.MkdirAll(filepath.Join(dir, "app"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "app", "main.py"), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		return filepath.Join(dir, "app")
	}
	spec := func(source string) TemplateSpec {
		return TemplateSpec{Image: "python", Steps: []BuildStep{{File: &FileStep{Source: source, Destination: "/app"}}}}
	}
	here, there := write(t.TempDir(), "print(1)\n"), write(t.TempDir(), "print(1)\n")
	hereHash, _ := spec(here).FilesHash()
	thereHash, _ := spec(there).FilesHash()
	if spec(here).Fingerprint() != spec(there).Fingerprint() || hereHash != thereHash {
		t.Error("the same files in another folder changed the fingerprint")
	}
	before := spec(here).Fingerprint()
	write(filepath.Dir(here), "print(2)\n")
	if spec(here).Fingerprint() == before {
		t.Error("an edited file did not change the fingerprint")
	}
	if hash, err := (TemplateSpec{Image: "python"}).FilesHash(); hash != "" || err != nil {
		t.Error("a spec without file steps has a files hash")
	}
}

// TestReadyCheckCommands: each check renders as the SDK's helper (js-sdk template/readycmd.ts).
func TestReadyCheckCommands(t *testing.T) {
	for _, tt := range []struct {
		check ReadyCheck
		want  string
	}{
		{ReadyCheck{Port: 8000}, `[ -n "$(ss -Htuln sport = :8000)" ]`},
		{ReadyCheck{URL: "http://localhost:3000/health"}, `curl -s -o /dev/null -w "%{http_code}" http://localhost:3000/health | grep -q "200"`},
		{ReadyCheck{URL: "http://localhost:3000/a?b=c&d", StatusCode: 204}, `curl -s -o /dev/null -w "%{http_code}" 'http://localhost:3000/a?b=c&d' | grep -q "204"`},
		{ReadyCheck{Process: "jupyter"}, `pgrep jupyter > /dev/null`},
		{ReadyCheck{File: "/tmp/ready file"}, `[ -f '/tmp/ready file' ]`},
		{ReadyCheck{Timeout: "20s"}, `sleep 20`},
		{ReadyCheck{Timeout: "1500ms"}, `sleep 1`},
		{ReadyCheck{Timeout: "100ms"}, `sleep 1`},
	} {
		if got := tt.check.Command(); got != tt.want {
			t.Errorf("%+v renders %s, want %s", tt.check, got, tt.want)
		}
	}
}

func TestShellQuoteIfNeeded(t *testing.T) { // shlex.quote's cases
	for in, want := range map[string]string{"": "''", "numpy": "numpy", "pandas==2.2.3": "pandas==2.2.3", "a b": "'a b'",
		"numpy>=2": "'numpy>=2'", "it's": `'it'"'"'s'`, "@types/node@20": "@types/node@20", "$HOME": "'$HOME'"} {
		if got := ShellQuoteIfNeeded(in); got != want {
			t.Errorf("ShellQuoteIfNeeded(%q) = %s, want %s", in, got, want)
		}
	}
}

// TestStepsContext: what the steps leave, as E2B's orchestrator carries it from step to step.
func TestStepsContext(t *testing.T) {
	str := func(s string) *string { return &s }
	spec := TemplateSpec{Steps: []BuildStep{
		{Env: map[string]string{"A": "1", "B": "2"}}, {Workdir: str("/srv")}, {Workdir: str("app/")}, {Env: map[string]string{"B": "3"}},
		{User: str("analyst")},
	}}
	c := spec.StepsContext()
	if c.Workdir != "/srv/app" || c.User != "analyst" || len(c.Env) != 2 || c.Env["A"] != "1" || c.Env["B"] != "3" {
		t.Errorf("context = %+v", c)
	}
	if got := c.Resolve("conf/"); got != "/srv/app/conf/" {
		t.Errorf("Resolve = %s, want the trailing slash kept", got)
	}
	if got := (StepsContext{User: "analyst"}).Resolve("x"); got != "/home/analyst/x" {
		t.Errorf("without a workdir a path resolves in the user's home, got %s", got)
	}
	if got := (StepsContext{}).Resolve("x"); got != "/root/x" {
		t.Errorf("without a workdir or user a path resolves in root's home, got %s", got)
	}
	if (TemplateSpec{}).StepsContext().Env != nil {
		t.Error("no env step, yet an environment")
	}
}

// TestPackagesIsTheFirstPipStep: packages is the short form of one global pip step, run before steps.
func TestPackagesIsTheFirstPipStep(t *testing.T) {
	got := TemplateSpec{Packages: []string{"numpy"}, Steps: []BuildStep{{Run: &RunStep{Command: "true"}}}}.BuildSteps()
	if len(got) != 2 || got[0].Field != "packages" || got[0].Pip == nil || !got[0].Pip.IsGlobal() || got[1].Field != "steps[0]" {
		t.Errorf("build steps = %+v", got)
	}
	if d := got[1].Describe(); d != "steps[0] (run `true`)" {
		t.Errorf("Describe = %s", d)
	}
}

func TestReadyCheckValidation(t *testing.T) {
	for _, tt := range []struct {
		spec TemplateSpec
		want string
	}{
		{TemplateSpec{ReadyCheck: &ReadyCheck{}}, "ready_check: set exactly one of port, url, process, file or timeout"},
		{TemplateSpec{ReadyCheck: &ReadyCheck{Port: 1, File: "/x"}}, "ready_check: set exactly one of"},
		{TemplateSpec{ReadyCheck: &ReadyCheck{Port: 70000}}, "ready_check.port: must be a TCP port"},
		{TemplateSpec{ReadyCheck: &ReadyCheck{URL: "localhost:80"}}, `ready_check.url: "localhost:80" is not an http:// or https:// URL`},
		{TemplateSpec{ReadyCheck: &ReadyCheck{Process: "-x"}}, "ready_check.process:"},
		{TemplateSpec{ReadyCheck: &ReadyCheck{Timeout: "-1s"}}, `ready_check.timeout: "-1s" is not a positive duration`},
		{TemplateSpec{ReadyCheck: &ReadyCheck{Port: 80, StatusCode: 200}}, "ready_check.status_code: applies to url only"},
		{TemplateSpec{ReadyCheck: &ReadyCheck{Port: 80}, ReadyCmd: "true"}, "ready_check: set ready_check or ready_cmd, not both"},
	} {
		var problems []string
		for _, p := range tt.spec.Validate(&Backend{TemplateID: NameRule}) {
			problems = append(problems, p.Error())
		}
		if !strings.Contains(strings.Join(problems, "\n"), tt.want) {
			t.Errorf("%+v: problems %q, want %q", tt.spec.ReadyCheck, problems, tt.want)
		}
	}
}
