package registrylogin

import (
	"testing"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders"
	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders/buildertest"
)

func TestLoginWithoutExchange(t *testing.T) {
	tests := []struct {
		name      string
		auth      builders.RegistryAuth
		wantUser  string
		wantPass  string
		wantStage builders.Stage
	}{
		{"nil auth: anonymous", nil, "", "", ""},
		{"basic passes through", &builders.BasicAuth{Username: "robot$ci", Password: builders.NewSecret("pw")}, "robot$ci", "pw", ""},
		{"incomplete aws", &builders.AWSAuth{AccessKeyID: "AKIA", SecretAccessKey: builders.NewSecret("s")}, "", "", builders.StageValidation},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			user, pass, err := Exchanger{}.Login(t.Context(), "registry.example.com/app:1", tt.auth)
			if tt.wantStage != "" {
				buildertest.AssertStage(t, err, tt.wantStage)
				return
			}
			if err != nil || user != tt.wantUser || pass.Reveal() != tt.wantPass {
				t.Errorf("Login = %q, %q, %v", user, pass.Reveal(), err)
			}
		})
	}
}

func TestParseECRRegistry(t *testing.T) {
	tests := []struct {
		image           string
		account, region string
		ok              bool
	}{
		{"123456789012.dkr.ecr.us-east-1.amazonaws.com/app:1", "123456789012", "us-east-1", true},
		{"123456789012.dkr.ecr-fips.us-gov-west-1.amazonaws.com/team/app@sha256:" + sha, "123456789012", "us-gov-west-1", true},
		{"123456789012.dkr.ecr.cn-north-1.amazonaws.com.cn/app", "123456789012", "cn-north-1", true},
		{"123456789012.dkr-ecr.eu-west-1.on.aws/app:2", "123456789012", "eu-west-1", true},
		{"public.ecr.aws/docker/library/python:3.12", "", "", false},
		{"python:3.12", "", "", false},
		{"ghcr.io/org/app:1", "", "", false},
		{"123456789012.dkr.ecr.us-east-1.amazonaws.com.evil.example/app", "", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.image, func(t *testing.T) {
			got, ok := parseECRRegistry(tt.image)
			if ok != tt.ok || got.accountID != tt.account || got.region != tt.region {
				t.Errorf("parseECRRegistry = %+v, %v", got, ok)
			}
		})
	}
}

const sha = "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
