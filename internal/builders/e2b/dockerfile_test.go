package e2b

import (
	"reflect"
	"strings"
	"testing"
)

func TestParseDockerfileErrors(t *testing.T) {
	for _, tt := range []struct{ dockerfile, want string }{
		{"RUN echo hi", "FROM instruction is required"},
		{"FROM python AS build\nFROM debian", "multi-stage"},
		{"FROM python\nADD https://example.com/x /x", "ADD needs files"},
	} {
		if _, err := parseDockerfile(tt.dockerfile); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("parseDockerfile(%q) = %v, want an error with %q", tt.dockerfile, err, tt.want)
		}
	}
}

func TestParseDockerfileForms(t *testing.T) {
	d, err := parseDockerfile("from python:3.12\r\nrun [\"pip\", \"install\", \"numpy\"]\nENV PATH /opt/bin:$PATH\nUSER app\nENTRYPOINT ./serve --port 8000\nLABEL a=b\n")
	if err != nil {
		t.Fatal(err)
	}
	want := []templateStep{
		{Type: stepUser, Args: []string{"root"}}, {Type: stepWorkdir, Args: []string{"/"}},
		runStep("'pip' 'install' 'numpy'"), {Type: stepEnv, Args: []string{"PATH", "/opt/bin:$PATH"}},
		{Type: stepUser, Args: []string{"app"}}, {Type: stepWorkdir, Args: []string{"/home/user"}},
	}
	if exec := execForm(`["echo", "a; touch x"]`); exec != `'echo' 'a; touch x'` {
		t.Errorf("exec form = %s, want each word quoted: the shell must not run touch", exec)
	}
	if d.image != "python:3.12" || !reflect.DeepEqual(d.steps, want) || d.startCmd != "./serve --port 8000" || d.readyCmd != dockerfileReadyCmd {
		t.Errorf("parsed = %+v, want python:3.12, steps %+v and the ENTRYPOINT as start command", d, want)
	}
	if len(d.notes) != 1 || !strings.Contains(d.notes[0], "LABEL") {
		t.Errorf("notes = %q, want LABEL reported as skipped", d.notes)
	}
}
