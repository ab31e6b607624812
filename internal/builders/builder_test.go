package builders

import (
	"context"
	"testing"
)

// refreshingFake is a fakeBuilder with its own re-check, which answers the opposite of IsUsable
// so that a test can tell which one StillUsable asked.
type refreshingFake struct{ *fakeBuilder }

func (r refreshingFake) StillUsable(ctx context.Context, id string) (bool, error) {
	usable, err := r.IsUsable(ctx, id)
	return !usable, err
}

func TestStillUsable(t *testing.T) {
	plain := newFake(buildsOK)
	plain.markUsable("py")
	if usable, err := StillUsable(t.Context(), plain, "py"); err != nil || !usable {
		t.Errorf("without a Refresher: StillUsable = %v, %v; want IsUsable's true", usable, err)
	}
	refreshing := refreshingFake{newFake(buildsOK)}
	refreshing.markUsable("py")
	if usable, err := StillUsable(t.Context(), refreshing, "py"); err != nil || usable {
		t.Errorf("with a Refresher: StillUsable = %v, %v; want the Refresher's false", usable, err)
	}
}
