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
