package main

import (
	"os"
	"strings"
)

// logLevelVars are the variables terraform-plugin-log reads for this provider's loggers: the SDK's,
// its protocol and framework subsystems, and the provider's own (TF_LOG_PROVIDER_ + the type name).
var logLevelVars = []string{"TF_LOG_SDK", "TF_LOG_SDK_PROTO", "TF_LOG_SDK_FRAMEWORK", "TF_LOG_PROVIDER_SANDBOX"}

// silenceDiscardedLogs turns the provider's loggers off when the CLI will throw their output away.
//
// terraform-plugin-log defaults to TRACE, so without this every RPC writes dozens of JSON lines to
// stderr that the CLI parses and then drops: Terraform and OpenTofu show a provider's log lines only
// when TF_LOG_PROVIDER or TF_LOG is set. Measured, that logging is about half of the provider's and
// the CLI's CPU per resource (see BENCHMARKS.md). A level the user set explicitly is left alone.
func silenceDiscardedLogs() {
	if strings.TrimSpace(os.Getenv("TF_LOG")) != "" || strings.TrimSpace(os.Getenv("TF_LOG_PROVIDER")) != "" {
		return
	}
	for _, name := range logLevelVars {
		if _, set := os.LookupEnv(name); !set {
			_ = os.Setenv(name, "OFF")
		}
	}
}
