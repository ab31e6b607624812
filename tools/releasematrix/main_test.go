package main

import (
	"slices"
	"strings"
	"testing"

	"github.com/goreleaser/goreleaser/v2/pkg/config"
)

// Go 1.26's pairs among those a Terraform provider builds.
var go126 = []string{"darwin/amd64", "darwin/arm64", "freebsd/386", "freebsd/amd64", "freebsd/arm", "freebsd/arm64",
	"linux/386", "linux/amd64", "linux/arm", "linux/arm64", "windows/386", "windows/amd64", "windows/arm64"}

func load(t *testing.T, yaml string) config.Project {
	t.Helper()
	cfg, err := config.LoadReader(strings.NewReader("version: 2\n" + yaml))
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

func TestUnsupported(t *testing.T) {
	matrix := `builds:
  - goos: [freebsd, windows, linux, darwin]
    goarch: [amd64, "386", arm, arm64]
    ignore:
      - goos: darwin
        goarch: "386"
`
	tests := []struct {
		name, yaml string
		want       []string
	}{
		{"the scaffolding's matrix before Go 1.26", matrix + `      - goos: darwin
        goarch: arm
`, []string{"windows/arm"}},
		{"windows/arm ignored", matrix + `      - goos: darwin
        goarch: arm
      - goos: windows
        goarch: arm
`, nil},
		{"ignoring one variant keeps the pair", matrix + `      - goos: darwin
        goarch: arm
      - goos: windows
        goarch: arm
        goarm: "7"
`, []string{"windows/arm"}},
		{"targets instead of a matrix", "builds:\n  - targets: [linux_amd64_v1, windows_arm_7, plan9_amd64]\n",
			[]string{"windows/arm", "plan9/amd64"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := unsupported(load(t, tt.yaml), go126); !slices.Equal(got, tt.want) {
				t.Errorf("unsupported = %v, want %v", got, tt.want)
			}
		})
	}
}
