package e2bemu_test

import (
	"net/http"
	"testing"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/emulator/e2bemu"
)

// Another team's template: its alias check and its tags refuse, public or not (template_alias.go,
// template_tags.go compare the owning team); the team's own list leaves it out. Answers are
// checked against E2B's spec.
func TestForeignTemplates(t *testing.T) {
	emu, _ := e2bemu.NewContractTestServer(t, e2bemu.Options{APIKey: apiKey})
	emu.SeedForeignTemplate("theirs-public", true)
	emu.SeedForeignTemplate("theirs-private", false)
	emu.SeedReadyTemplate("ours")
	c := newCaller(t, emu)
	for _, tt := range []struct {
		path string
		want int
	}{
		{"/templates/aliases/theirs-public", http.StatusForbidden},
		{"/templates/aliases/theirs-private", http.StatusForbidden},
		{"/templates/theirs-public/tags", http.StatusForbidden},
		{"/templates/theirs-private/tags", http.StatusForbidden},
		{"/templates/aliases/ours", http.StatusOK},
	} {
		if status, _, _, _ := c.call("GET", tt.path, nil); status != tt.want {
			t.Errorf("GET %s = %d, want %d", tt.path, status, tt.want)
		}
	}
	if _, _, _, list := c.call("GET", "/templates", nil); len(list) != 1 {
		t.Errorf("GET /templates lists %d templates, want only the team's own", len(list))
	}
}
