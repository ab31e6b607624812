// Command releasematrix fails when a goreleaser config asks for a GOOS/GOARCH pair that this Go
// toolchain does not build, without compiling anything. CI builds one target while a release builds
// them all, and goreleaser skips pairs it knows to be invalid with only a debug line (v2.17 skips
// windows/arm, which Go 1.26 rejects; older releases fail on it): either way the platforms a release
// ships would differ from the ones .goreleaser.yml lists. Pairs Go does not build belong in ignore.
//
//	go run ./releasematrix ../.goreleaser.yml
package main

import (
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strings"

	"github.com/goreleaser/goreleaser/v2/pkg/config"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: releasematrix <goreleaser config>")
		os.Exit(2)
	}
	cfg, err := config.Load(os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	out, err := exec.Command("go", "tool", "dist", "list").Output()
	if err != nil {
		fmt.Fprintln(os.Stderr, "go tool dist list:", err)
		os.Exit(1)
	}
	if bad := unsupported(cfg, strings.Fields(string(out))); len(bad) > 0 {
		fmt.Fprintf(os.Stderr, "%s asks for pairs this Go does not build: %s (list them under ignore)\n", os.Args[1], strings.Join(bad, ", "))
		os.Exit(1)
	}
}

// unsupported lists the goos/goarch pairs the config's builds would build that are not in supported
// (the lines of `go tool dist list`).
func unsupported(cfg config.Project, supported []string) []string {
	var bad []string
	for _, pair := range pairs(cfg) {
		if !slices.Contains(supported, pair) && !slices.Contains(bad, pair) {
			bad = append(bad, pair)
		}
	}
	return bad
}

// pairs are the goos/goarch pairs of every build: its targets, or its goos x goarch matrix less the
// ignored pairs. An ignore that names a variant (goarm: 7, ...) leaves the pair's other variants in.
func pairs(cfg config.Project) []string {
	var all []string
	for _, b := range cfg.Builds {
		for _, t := range b.Targets {
			goos, rest, _ := strings.Cut(t, "_")
			goarch, _, _ := strings.Cut(rest, "_")
			all = append(all, goos+"/"+goarch)
		}
		if len(b.Targets) > 0 {
			continue
		}
		for _, goos := range b.Goos {
			for _, goarch := range b.Goarch {
				if !ignored(b.Ignore, goos, goarch) {
					all = append(all, goos+"/"+goarch)
				}
			}
		}
	}
	return all
}

func ignored(ignore []config.IgnoredBuild, goos, goarch string) bool {
	return slices.ContainsFunc(ignore, func(i config.IgnoredBuild) bool {
		wholePair := i == config.IgnoredBuild{Goos: i.Goos, Goarch: i.Goarch}
		return wholePair && i.Goos == goos && i.Goarch == goarch
	})
}
