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
	"AWS_ENDPOINT_URL", "AWS_ENDPOINT_URL_ECR", "AWS_ENDPOINT_URL_BEDROCK_AGENTCORE_CONTROL",
	"AWS_ENDPOINT_URL_BEDROCK_AGENTCORE", "AWS_IGNORE_CONFIGURED_ENDPOINT_URLS",
	"AWS_CONTAINER_CREDENTIALS_FULL_URI", "AWS_CONTAINER_CREDENTIALS_RELATIVE_URI", "AWS_WEB_IDENTITY_TOKEN_FILE",
}

// IsolateSDK keeps the AWS SDK away from ~/.aws and real AWS for one test: empty shared config and
// credentials files, IMDS off, every other SDK variable cleared, then env applied on top. It returns
// the paths of the (empty) files so a test can write a profile into them.
func IsolateSDK(t testing.TB, env map[string]string) (configFile, credentialsFile string) {
	t.Helper()
	dir := t.TempDir()
	vars, err := isolation(dir, env)
	if err != nil {
		t.Fatal(err)
	}
	for name, value := range vars {
		t.Setenv(name, value)
	}
	return vars["AWS_CONFIG_FILE"], vars["AWS_SHARED_CREDENTIALS_FILE"]
}

// IsolateSDKProcess is IsolateSDK for a whole test binary, from TestMain, before any test runs:
// tests that run in parallel cannot change the environment, so it is set once, for good. The
// empty files go in dir.
func IsolateSDKProcess(dir string, env map[string]string) error {
	vars, err := isolation(dir, env)
	if err != nil {
		return err
	}
	for name, value := range vars {
		if err := os.Setenv(name, value); err != nil {
			return err
		}
	}
	return nil
}

// isolation writes the empty shared files into dir and returns the variables that isolate the SDK.
func isolation(dir string, env map[string]string) (map[string]string, error) {
	vars := map[string]string{"AWS_CONFIG_FILE": filepath.Join(dir, "config"), "AWS_SHARED_CREDENTIALS_FILE": filepath.Join(dir, "credentials"),
		"AWS_EC2_METADATA_DISABLED": "true"}
	for _, name := range []string{"AWS_CONFIG_FILE", "AWS_SHARED_CREDENTIALS_FILE"} {
		if err := os.WriteFile(vars[name], nil, 0o600); err != nil {
			return nil, err
		}
	}
	for _, name := range sdkEnv {
		vars[name] = ""
	}
	for name, value := range env {
		vars[name] = value
	}
	return vars, nil
}
