// Package buildertest holds assertions the backend packages' tests share.
package buildertest

import (
	"strings"
	"testing"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders"
)

// AssertStage fails the test unless err is an error at stage want whose text holds every one of contains.
func AssertStage(t *testing.T, err error, want builders.Stage, contains ...string) {
	t.Helper()
	if err == nil {
		t.Fatalf("want an error at %s", want)
	}
	if got := builders.StageOf(err, ""); got != want {
		t.Errorf("stage %q, want %q (%v)", got, want, err)
	}
	for _, s := range contains {
		if !strings.Contains(err.Error(), s) {
			t.Errorf("error %q does not contain %q", err, s)
		}
	}
}
