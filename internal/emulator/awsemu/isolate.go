package awsemu

import (
	"os"
	"path/filepath"
	"testing"
)

// sdkEnv lists every variable through which the AWS SDK's default chain could reach the machine's
// own credentials, region, endpoints or metadata services.
var sdkEnv = []string{
	"AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN", "AWS_REGION", "AWS_DEFAULT_REGION", "AWS_PROFILE",
	"AWS_ENDPOINT_URL", "AWS_ENDPOINT_URL_ECR", "AWS_ENDPOINT_URL_BEDROCK_AGENTCORE_CONTROL", "AWS_IGNORE_CONFIGURED_ENDPOINT_URLS",
	"AWS_CONTAINER_CREDENTIALS_FULL_URI", "AWS_CONTAINER_CREDENTIALS_RELATIVE_URI", "AWS_WEB_IDENTITY_TOKEN_FILE",
}

// IsolateSDK keeps the AWS SDK away from ~/.aws and real AWS for one test: empty shared config and
// credentials files, IMDS off, every other SDK variable cleared, then env applied on top. It returns
// the paths of the (empty) files so a test can write a profile into them.
func IsolateSDK(t testing.TB, env map[string]string) (configFile, credentialsFile string) {
	t.Helper()
	dir := t.TempDir()
	configFile, credentialsFile = filepath.Join(dir, "config"), filepath.Join(dir, "credentials")
	for _, path := range []string{configFile, credentialsFile} {
		if err := os.WriteFile(path, nil, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	for _, name := range sdkEnv {
		t.Setenv(name, "")
	}
	t.Setenv("AWS_CONFIG_FILE", configFile)
	t.Setenv("AWS_SHARED_CREDENTIALS_FILE", credentialsFile)
	t.Setenv("AWS_EC2_METADATA_DISABLED", "true")
	for name, value := range env {
		t.Setenv(name, value)
	}
	return configFile, credentialsFile
}
