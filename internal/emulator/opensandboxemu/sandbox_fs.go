package opensandboxemu

import (
	"fmt"
	"strings"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/emulator/sandboxos"
)

// A sandbox's root filesystem is a sandboxos machine booted from its image (a restore: a clone
// of its snapshot's): the folders that exist (execd refuses a command whose cwd does not:
// runtime/workingdir.go ValidateWorkingDir), the users in /etc/passwd (execd looks owners up by
// name: controller/utils.go SetFileOwnership), and whatever commands installed. A snapshot keeps it,
// as it keeps the root filesystem.

// boot starts the root filesystem of a container of image, or says why the image does not pull
// (the Docker daemon's words, which the Docker runtime passes on).
func (s *Server) boot(image string) (*sandboxos.Machine, string) {
	img, err := s.catalogue.Resolve(image)
	if err != nil {
		r := sandboxos.ParseReference(image)
		if err.Code == sandboxos.ManifestUnknown {
			return nil, fmt.Sprintf("manifest for %s not found: manifest unknown: manifest unknown", image)
		}
		name := strings.TrimPrefix(r.Repository, "library/")
		return nil, fmt.Sprintf("pull access denied for %s, repository does not exist or may require 'docker login': denied: requested access to the resource is denied", name)
	}
	return sandboxos.Boot(img), ""
}

// bootSeeded is the filesystem of a seeded snapshot's image; an image that would not pull (or
// none) is a bare Debian root filesystem.
func (s *Server) bootSeeded(image string) *sandboxos.Machine {
	if m, problem := s.boot(image); problem == "" && image != "" {
		return m
	}
	img, _ := sandboxos.Declaration{}.Image()
	return sandboxos.Boot(img)
}

// override is Options.Programs as a process's override.
func (s *Server) override() func([]string) (sandboxos.Result, bool) {
	decide := s.opts.Programs
	if decide == nil {
		return nil
	}
	return func(argv []string) (sandboxos.Result, bool) {
		r, ok := decide(strings.Join(argv, " "))
		if !ok {
			return sandboxos.Result{}, false
		}
		return sandboxos.Result{ExitCode: r.ExitCode, Stdout: joinLines(r.Stdout), Stderr: joinLines(r.Stderr)}, true
	}
}

func joinLines(lines []string) string {
	if len(lines) == 0 {
		return ""
	}
	return strings.Join(lines, "\n") + "\n"
}

// ownerProblem is execd's error for an owner or group it cannot look up, or "".
func ownerProblem(m *sandboxos.Machine, owner, group string) string {
	if _, ok := m.LookupUser(owner); owner != "" && !ok {
		return fmt.Sprintf("failed to lookup user %s: user: unknown user %s", owner, owner)
	}
	if group != "" && !m.HasGroup(group) {
		return fmt.Sprintf("failed to lookup group %s: group: unknown group %s", group, group)
	}
	return ""
}
