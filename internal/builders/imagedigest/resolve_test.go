package imagedigest

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders"
	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders/imagedigest/imagedigesttest"
)

const (
	user     = "ci-bot"
	password = "s3cret-registry-password"
)

func basicAuth(pw string) builders.RegistryAuth {
	return &builders.BasicAuth{Username: user, Password: builders.NewSecret(pw)}
}

// passThrough is the basic-auth branch of registrylogin.Exchanger.Login.
func passThrough(_ context.Context, _ string, auth builders.RegistryAuth) (string, builders.Secret, error) {
	basic, ok := auth.(*builders.BasicAuth)
	if !ok {
		return "", builders.Secret{}, nil
	}
	return basic.Username, basic.Password, nil
}

func TestResolveFollowsTheTag(t *testing.T) {
	reg := imagedigesttest.New(t, user, password)
	first := reg.Push(t, "team/app:main")
	resolver := Resolver{Login: passThrough}
	image := reg.Host + "/team/app:main"

	got, err := resolver.Resolve(t.Context(), image, basicAuth(password))
	if err != nil || got != first {
		t.Fatalf("Resolve = %q, %v; want %s", got, err, first)
	}
	second := reg.Push(t, "team/app:main") // CI pushed a new image under the same tag
	if second == first {
		t.Fatal("the test pushed the same image twice")
	}
	if got, err := resolver.Resolve(t.Context(), image, basicAuth(password)); err != nil || got != second {
		t.Fatalf("after the push Resolve = %q, %v; want %s", got, err, second)
	}
}

func TestResolvePinnedSendsNothing(t *testing.T) {
	reg := imagedigesttest.New(t, user, password)
	digest := reg.Push(t, "team/app:main")
	before := reg.Requests()
	login := func(context.Context, string, builders.RegistryAuth) (string, builders.Secret, error) {
		return "", builders.Secret{}, errors.New("a pinned image needs no login")
	}
	got, err := Resolver{Login: login}.Resolve(t.Context(), reg.Host+"/team/app@"+digest, basicAuth(password))
	if err != nil || got != digest {
		t.Fatalf("Resolve = %q, %v; want %s", got, err, digest)
	}
	if n := reg.Requests() - before; n != 0 {
		t.Errorf("a pinned image cost %d registry requests, want 0", n)
	}
}

func TestResolveErrors(t *testing.T) {
	reg := imagedigesttest.New(t, user, password)
	reg.Push(t, "team/app:main")
	resolver := Resolver{Login: passThrough}
	tests := []struct {
		name, image string
		auth        builders.RegistryAuth
		want        string
	}{
		{"wrong password", reg.Host + "/team/app:main", basicAuth("wrong-" + password), "401"},
		{"anonymous", reg.Host + "/team/app:main", nil, "401"},
		{"unknown tag", reg.Host + "/team/app:gone", basicAuth(password), "404"},
		{"not an image reference", "UPPER/Case::x", nil, "parsing image"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := resolver.Resolve(t.Context(), tt.image, tt.auth)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("Resolve error = %v, want one containing %q", err, tt.want)
			}
			if strings.Contains(err.Error(), password) {
				t.Errorf("the error leaks the password: %v", err)
			}
		})
	}
}

// A login that fails (an ECR token exchange refused) is the error, with its own stage.
func TestResolveLoginError(t *testing.T) {
	reg := imagedigesttest.New(t, user, password)
	failed := builders.AtStage(builders.StageRegistryAuth, errors.New("ECR token exchange failed"))
	login := func(context.Context, string, builders.RegistryAuth) (string, builders.Secret, error) {
		return "", builders.Secret{}, failed
	}
	if _, err := (Resolver{Login: login}).Resolve(t.Context(), reg.Host+"/team/app:main", basicAuth(password)); !errors.Is(err, failed) {
		t.Fatalf("Resolve error = %v, want the login's", err)
	}
}

func TestWithDigest(t *testing.T) {
	const d = "sha256:0123"
	for image, want := range map[string]string{
		"python:3.12":                     "python@" + d,
		"python":                          "python@" + d,
		"127.0.0.1:5000/team/app:main":    "127.0.0.1:5000/team/app@" + d,
		"127.0.0.1:5000/team/app":         "127.0.0.1:5000/team/app@" + d,
		"ghcr.io/acme/app:1.4@sha256:old": "ghcr.io/acme/app@" + d,
		"123456789012.dkr.ecr.us-east-1.amazonaws.com/ds:1.4": "123456789012.dkr.ecr.us-east-1.amazonaws.com/ds@" + d,
	} {
		if got := WithDigest(image, d); got != want {
			t.Errorf("WithDigest(%q) = %q, want %q", image, got, want)
		}
	}
}

func TestPinned(t *testing.T) {
	if Pinned("python:3.12") || !Pinned("python@sha256:0123") {
		t.Error("Pinned tells a tag from a digest wrongly")
	}
}
