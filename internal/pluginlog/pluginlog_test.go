package pluginlog

import (
	"os"
	"testing"
)

const address = "registry.terraform.io/sandboxtf/sandbox"

func TestSilenceDiscarded(t *testing.T) {
	tests := []struct {
		name string
		env  map[string]string
		want map[string]string // "" = left unset
	}{
		{"the CLI discards the logs", nil,
			map[string]string{"TF_LOG_SDK": "OFF", "TF_LOG_SDK_PROTO": "OFF", "TF_LOG_SDK_FRAMEWORK": "OFF", "TF_LOG_PROVIDER_SANDBOX": "OFF"}},
		{"TF_LOG asks for them", map[string]string{"TF_LOG": "debug"}, map[string]string{"TF_LOG_SDK": "", "TF_LOG_PROVIDER_SANDBOX": ""}},
		{"TF_LOG_PROVIDER asks for them", map[string]string{"TF_LOG_PROVIDER": "TRACE"}, map[string]string{"TF_LOG_SDK_FRAMEWORK": ""}},
		{"a level set explicitly is kept", map[string]string{"TF_LOG_SDK_PROTO": "TRACE"},
			map[string]string{"TF_LOG_SDK_PROTO": "TRACE", "TF_LOG_SDK": "OFF"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, name := range append([]string{"TF_LOG", "TF_LOG_PROVIDER"}, levelVars(address)...) {
				t.Setenv(name, "") // restored after the test
				if value, ok := tt.env[name]; ok {
					t.Setenv(name, value)
				} else {
					_ = os.Unsetenv(name)
				}
			}
			SilenceDiscarded(address)
			for name, want := range tt.want {
				if got := os.Getenv(name); got != want {
					t.Errorf("%s = %q, want %q", name, got, want)
				}
			}
		})
	}
}
