package bedrock

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders"
	"github.com/sandboxtf/terraform-provider-sandbox/internal/emulator/awsemu"
)

const (
	envKeyID  = "AKIABEDROCKENVTEST01"
	envSecret = "bedrock-env-secret"
	customID  = "analysis-a1b2c3d4e5"
)

// isolateAWS keeps the SDK away from ~/.aws and real AWS: empty shared files, fake environment
// credentials, no IMDS. It returns the paths of the (empty) config and credentials files.
func isolateAWS(t *testing.T) (configFile, credentialsFile string) {
	t.Helper()
	dir := t.TempDir()
	configFile, credentialsFile = filepath.Join(dir, "config"), filepath.Join(dir, "credentials")
	for _, path := range []string{configFile, credentialsFile} {
		if err := os.WriteFile(path, nil, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	for env, value := range map[string]string{
		"AWS_CONFIG_FILE": configFile, "AWS_SHARED_CREDENTIALS_FILE": credentialsFile,
		"AWS_ACCESS_KEY_ID": envKeyID, "AWS_SECRET_ACCESS_KEY": envSecret, "AWS_SESSION_TOKEN": "",
		"AWS_REGION": "us-east-1", "AWS_DEFAULT_REGION": "", "AWS_PROFILE": "",
		"AWS_ENDPOINT_URL": "", "AWS_ENDPOINT_URL_BEDROCK_AGENTCORE_CONTROL": "",
		"AWS_EC2_METADATA_DISABLED": "true", "AWS_CONTAINER_CREDENTIALS_FULL_URI": "", "AWS_CONTAINER_CREDENTIALS_RELATIVE_URI": "",
		"AWS_WEB_IDENTITY_TOKEN_FILE": "",
	} {
		t.Setenv(env, value)
	}
	return configFile, credentialsFile
}

// newEmulatedBuilder returns a builder talking to a fresh emulator that accepts the environment's keys.
func newEmulatedBuilder(t *testing.T) (*Builder, *awsemu.Emulator) {
	t.Helper()
	isolateAWS(t)
	e := awsemu.NewTestServer(t, awsemu.Options{AccessKeyID: envKeyID, SecretAccessKey: envSecret})
	b, err := New(t.Context(), Config{Endpoint: e.URL})
	if err != nil {
		t.Fatal(err)
	}
	return b, e
}

func assertStage(t *testing.T, err error, want builders.Stage, contains ...string) {
	t.Helper()
	if err == nil {
		t.Fatalf("want an error at %s", want)
	}
	if got := builders.StageOf(err, ""); got != want {
		t.Errorf("stage %q, want %q (%v)", got, want, err)
	}
	for _, s := range contains {
		if !strings.Contains(err.Error(), s) {
			t.Errorf("error %q does not contain %q", err, s)
		}
	}
}
