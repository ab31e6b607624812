// Package pluginlog keeps a provider process from writing logs that the CLI would throw away.
package pluginlog

import (
	"os"
	"strings"
)

// levelVars are the variables terraform-plugin-log reads for a provider's loggers: the SDK's, its
// protocol and framework subsystems, and the provider's own (TF_LOG_PROVIDER_ + its type name,
// the last part of its address).
func levelVars(providerAddress string) []string {
	providerType := providerAddress[strings.LastIndex(providerAddress, "/")+1:]
	return []string{"TF_LOG_SDK", "TF_LOG_SDK_PROTO", "TF_LOG_SDK_FRAMEWORK",
		"TF_LOG_PROVIDER_" + strings.ToUpper(strings.ReplaceAll(providerType, "-", "_"))}
}

// SilenceDiscarded turns the loggers of the provider at this address off when the CLI will throw
// their output away. Call it before serving.
//
// terraform-plugin-log defaults to TRACE, so without this every RPC writes dozens of JSON lines to
// stderr that the CLI parses and then drops: Terraform and OpenTofu show a provider's log lines only
// when TF_LOG_PROVIDER or TF_LOG is set. Profiled, that logging was about a quarter of the provider's
// CPU in a large apply, besides the CLI's parsing. A level the user set explicitly is left alone.
func SilenceDiscarded(providerAddress string) {
	if strings.TrimSpace(os.Getenv("TF_LOG")) != "" || strings.TrimSpace(os.Getenv("TF_LOG_PROVIDER")) != "" {
		return
	}
	for _, name := range levelVars(providerAddress) {
		if _, set := os.LookupEnv(name); !set {
			_ = os.Setenv(name, "OFF")
		}
	}
}
