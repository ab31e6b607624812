package e2bemu_test

import (
	"testing"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/emulator/e2bemu"
)

// TestCachedBaseIsNotPulled: the base layer's key holds the image's name and no credentials
// (phases/base/hash.go), and a cached layer is returned before its Build runs (phases/phase.go
// runPhase), which is where the image is pulled (core/rootfs/rootfs.go). So once a build has
// pulled a private image, the team's next builds from that image take the cached base with any
// credentials or none; force builds the base again, and the registry checks the credentials.
func TestCachedBaseIsNotPulled(t *testing.T) {
	emu := e2bemu.NewTestServer(t, e2bemu.Options{APIKey: apiKey})
	c := newCaller(t, emu)
	login := map[string]any{"type": "registry", "username": e2bemu.PrivateRegistryUser, "password": e2bemu.PrivateRegistryPassword}
	rotated := map[string]any{"type": "registry", "username": e2bemu.PrivateRegistryUser, "password": "rotated-and-wrong"}
	denied := func(ref string) string {
		return "access denied to '" + ref + "': authentication required or insufficient permissions"
	}
	for _, tt := range []struct {
		name, image string
		login       map[string]any
		force       bool
		want        string // "" for ready
		baseCached  bool
	}{
		{"the first build pulls with the login", "registry.test/team/app:1", login, false, "", false},
		{"new credentials, base cached: not checked", "registry.test/team/app:1", rotated, false, "", true},
		{"no credentials, base cached: not checked", "registry.test/team/app:1", nil, false, "", true},
		{"new credentials, forced: the pull checks them", "registry.test/team/app:1", rotated, true, denied("registry.test/team/app:1"), false},
		{"another tag is another base: pulled", "registry.test/team/app:latest", rotated, false, denied("registry.test/team/app:latest"), false},
		{"the login, forced: pulls again", "registry.test/team/app:1", login, true, "", false},
	} {
		body := map[string]any{"fromImage": tt.image, "force": tt.force}
		if tt.login != nil {
			body["fromImageRegistry"] = tt.login
		}
		got := failedAtStart(t, c, "private", body)
		message, step := reasonOf(got)
		switch {
		case tt.want == "" && got["status"] != "ready":
			t.Errorf("%s: %v, want ready", tt.name, got)
		case tt.want != "" && (got["status"] != "error" || message != tt.want || step != "base"):
			t.Errorf("%s: %v, want error %q at base", tt.name, got, tt.want)
		}
		if tt.want != "" {
			continue
		}
		info, _ := emu.Template("private")
		if layers := info.Builds[len(info.Builds)-1].Layers; len(layers) == 0 || layers[0].Cached != tt.baseCached {
			t.Errorf("%s: layers %+v, want the base cached=%v", tt.name, layers, tt.baseCached)
		}
	}
}
