package bedrock

import (
	"os"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders"
	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders/buildertest"
	"github.com/sandboxtf/terraform-provider-sandbox/internal/emulator/awsemu"
)

// TestNewConfigSources checks where region, credentials and endpoint come from, by what reached the
// emulator's credential scope.
func TestNewConfigSources(t *testing.T) {
	tests := []struct {
		name       string
		config     func(t *testing.T, url, configFile, credentialsFile string) Config
		wantRegion string
		wantKeyID  string
	}{
		{"environment defaults", func(t *testing.T, url, _, _ string) Config { return Config{Endpoint: url} }, "us-east-1", envKeyID},
		{"region option wins over AWS_REGION", func(t *testing.T, url, _, _ string) Config {
			return Config{Region: "eu-central-1", Endpoint: url}
		}, "eu-central-1", envKeyID},
		{"endpoint from AWS_ENDPOINT_URL_BEDROCK_AGENTCORE_CONTROL", func(t *testing.T, url, _, _ string) Config {
			t.Setenv("AWS_ENDPOINT_URL_BEDROCK_AGENTCORE_CONTROL", url)
			return Config{}
		}, "us-east-1", envKeyID},
		{"endpoint option wins over the environment", func(t *testing.T, url, _, _ string) Config {
			t.Setenv("AWS_ENDPOINT_URL_BEDROCK_AGENTCORE_CONTROL", "http://127.0.0.1:1")
			return Config{Endpoint: url}
		}, "us-east-1", envKeyID},
		{"profile from the shared files", func(t *testing.T, url, configFile, credentialsFile string) Config {
			t.Setenv("AWS_ACCESS_KEY_ID", "")
			t.Setenv("AWS_SECRET_ACCESS_KEY", "")
			t.Setenv("AWS_REGION", "")
			writeFile(t, configFile, "[profile sandbox]\nregion = ap-northeast-1\n")
			writeFile(t, credentialsFile, "[sandbox]\naws_access_key_id = AKIAPROFILEKEY000001\naws_secret_access_key = profile-secret\n")
			return Config{Profile: "sandbox", Endpoint: url}
		}, "ap-northeast-1", "AKIAPROFILEKEY000001"},
		{"prebuilt AWS config", func(t *testing.T, url, _, _ string) Config {
			return Config{Region: "sa-east-1", Endpoint: url, AWSConfig: &aws.Config{
				Region: "us-west-1", Credentials: credentials.NewStaticCredentialsProvider("AKIAPREBUILT00000001", "prebuilt", ""),
			}}
		}, "sa-east-1", "AKIAPREBUILT00000001"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			configFile, credentialsFile := isolateAWS(t)
			e := awsemu.NewTestServer(t, awsemu.Options{})
			e.SeedCodeInterpreter(customID, "READY")
			b, err := New(t.Context(), tt.config(t, e.URL, configFile, credentialsFile))
			if err != nil {
				t.Fatal(err)
			}
			if usable, err := b.IsUsable(t.Context(), customID); err != nil || !usable {
				t.Fatalf("IsUsable = %v, %v", usable, err)
			}
			reqs := e.Requests()
			if len(reqs) != 1 || reqs[0].Region != tt.wantRegion || reqs[0].AccessKeyID != tt.wantKeyID || reqs[0].Service != "bedrock-agentcore" {
				t.Errorf("recorded %+v, want region %s and key %s", reqs, tt.wantRegion, tt.wantKeyID)
			}
		})
	}
}

func TestNewErrors(t *testing.T) {
	t.Run("no region", func(t *testing.T) {
		isolateAWS(t)
		t.Setenv("AWS_REGION", "")
		if _, err := New(t.Context(), Config{}); err == nil {
			t.Fatal("want an error without a region")
		}
	})
	t.Run("unknown profile", func(t *testing.T) {
		isolateAWS(t)
		if _, err := New(t.Context(), Config{Profile: "nope"}); err == nil {
			t.Fatal("want an error for a profile that is not configured")
		}
	})
}

func TestNoCredentialsIsAnAuthError(t *testing.T) {
	isolateAWS(t)
	t.Setenv("AWS_ACCESS_KEY_ID", "")
	t.Setenv("AWS_SECRET_ACCESS_KEY", "")
	e := awsemu.NewTestServer(t, awsemu.Options{})
	b, err := New(t.Context(), Config{Endpoint: e.URL})
	if err != nil {
		t.Fatal(err)
	}
	_, err = b.IsUsable(t.Context(), customID)
	t.Logf("error: %v", err)
	buildertest.AssertStage(t, err, builders.StageAPIAuth, "no usable AWS credentials")
	if len(e.Requests()) != 0 {
		t.Error("nothing may be sent without credentials")
	}
}

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
}
