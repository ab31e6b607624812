package builders

import "testing"

func TestSettingFallback(t *testing.T) {
	t.Parallel()
	env := map[string]string{"KEY": "from-env", "HOST": "h", "SCHEME": "https"}
	getenv := func(name string) string { return env[name] }
	for _, tt := range []struct {
		name    string
		setting Setting
		want    string
	}{
		{"its variable", Setting{Env: "KEY"}, "from-env"},
		{"an unset variable", Setting{Env: "MISSING"}, ""},
		{"no variable", Setting{}, ""},
		{"read by the SDK", Setting{Env: "KEY", SDKEnv: true}, ""},
		{"its own reading", Setting{Env: "HOST", EnvValue: func(getenv func(string) string) string {
			return getenv("SCHEME") + "://" + getenv("HOST")
		}}, "https://h"},
	} {
		if got := tt.setting.Fallback(getenv); got != tt.want {
			t.Errorf("%s: Fallback = %q, want %q", tt.name, got, tt.want)
		}
	}
}
