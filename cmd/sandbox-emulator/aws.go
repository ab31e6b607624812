package main

import (
	"fmt"
	"strings"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/emulator/awsemu"
)

// startAWS serves ECR and the Bedrock AgentCore control API on one port, and AgentCore's data plane
// (code interpreter sessions) on another, as AWS serves it on a host of its own. It accepts only the key
// pair it prints, verifying SigV4 signatures as AWS does (for the printed region), so the AWS SDK's
// default chain must pick exactly these credentials (environment variables come first in it).
func startAWS(o options) (backend, error) {
	keyID := "AKIAEMULATOR" + strings.ToUpper(throwaway("", 4)) // 20 characters, as AWS's
	secret := throwaway("", 20)
	emu := awsemu.New(awsemu.Options{AccessKeyID: keyID, SecretAccessKey: secret, Region: o.awsRegion})
	if err := emu.Start(listenAddr(o, "0")); err != nil {
		return backend{}, fmt.Errorf("starting the AWS emulator: %w", err)
	}
	return backend{
		name: "aws",
		settings: []setting{
			{"AWS_ENDPOINT_URL_ECR", emu.URL},
			{"AWS_ENDPOINT_URL_BEDROCK_AGENTCORE_CONTROL", emu.URL},
			{"AWS_ENDPOINT_URL_BEDROCK_AGENTCORE", emu.DataPlaneURL},
			{"AWS_ACCESS_KEY_ID", keyID},
			{"AWS_SECRET_ACCESS_KEY", secret},
			{"AWS_REGION", o.awsRegion},
		},
		close:    emu.Close,
		activity: func() string { return fmt.Sprintf("%d requests", len(emu.Requests())) },
	}, nil
}
