package bedrock

import (
	"testing"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/emulator/awsemu"
)

const (
	envKeyID  = "AKIABEDROCKENVTEST01"
	envSecret = "bedrock-env-secret"
	customID  = "analysis-a1b2c3d4e5"
)

// isolateAWS keeps the SDK away from ~/.aws and real AWS, with fake environment credentials in
// us-east-1. It returns the paths of the (empty) config and credentials files.
func isolateAWS(t testing.TB) (configFile, credentialsFile string) {
	t.Helper()
	return awsemu.IsolateSDK(t, map[string]string{"AWS_ACCESS_KEY_ID": envKeyID, "AWS_SECRET_ACCESS_KEY": envSecret, "AWS_REGION": "us-east-1"})
}

// newEmulatedBuilder returns a builder talking to a fresh emulator that accepts the environment's keys.
func newEmulatedBuilder(t testing.TB) (*Builder, *awsemu.Emulator) {
	t.Helper()
	return newEmulatedBuilderWith(t, awsemu.Options{})
}

// newEmulatedBuilderWith is newEmulatedBuilder with the emulator's options (its keys are set).
func newEmulatedBuilderWith(t testing.TB, opts awsemu.Options) (*Builder, *awsemu.Emulator) {
	t.Helper()
	isolateAWS(t)
	opts.AccessKeyID, opts.SecretAccessKey = envKeyID, envSecret
	e := awsemu.NewTestServer(t, opts)
	b, err := New(t.Context(), Config{Endpoint: e.URL, DataEndpoint: e.DataPlaneURL})
	if err != nil {
		t.Fatal(err)
	}
	return b, e
}
