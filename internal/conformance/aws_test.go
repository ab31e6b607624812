package conformance

import (
	"os"
	"path/filepath"
	"testing"
)

// awsSettings are the lines the standalone emulator prints for its AWS emulator: the endpoint
// overrides the AWS SDKs read, and the only credentials it accepts (it verifies SigV4 signatures).
var awsSettings = []string{
	"AWS_ENDPOINT_URL_ECR", "AWS_ENDPOINT_URL_BEDROCK_AGENTCORE_CONTROL", "AWS_ENDPOINT_URL_BEDROCK_AGENTCORE",
	"AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_REGION",
}

// TestAWSJavaScriptSDK runs the official AWS SDK for JavaScript v3 clients for ECR
// (GetAuthorizationToken), Bedrock AgentCore control (GetCodeInterpreter) and its data plane
// (StartCodeInterpreterSession, InvokeCodeInterpreter's event stream, StopCodeInterpreterSession)
// against the standalone emulator, configured by nothing but the printed settings.
func TestAWSJavaScriptSDK(t *testing.T) {
	settings := startEmulator(t, awsSettings)
	runNodeTest(t, "aws.test.mjs", append(envOf(settings), isolatedAWSEnv(t)...)...)
}

// isolatedAWSEnv keeps the SDK's default chain to the printed settings: no shared config or
// credentials files, profile, session token, generic endpoint or instance metadata of this machine.
func isolatedAWSEnv(t *testing.T) []string {
	empty := filepath.Join(t.TempDir(), "empty")
	if err := os.WriteFile(empty, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	return []string{
		"AWS_CONFIG_FILE=" + empty, "AWS_SHARED_CREDENTIALS_FILE=" + empty, "AWS_PROFILE=", "AWS_SESSION_TOKEN=",
		"AWS_ENDPOINT_URL=", "AWS_IGNORE_CONFIGURED_ENDPOINT_URLS=", "AWS_EC2_METADATA_DISABLED=true",
	}
}
