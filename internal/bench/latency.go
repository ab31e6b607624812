package main

import (
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/emulator/e2bemu"
)

// latencyResult are single-template applies, in seconds. direct: the CLI's exit minus the moment
// the emulator's build became ready (ready_at); poll: when a poll first saw it ready (observed_at)
// minus ready_at; slow: the apply's wall time with -build-duration builds; fast: with zero-time
// builds.
type latencyResult struct {
	direct, poll, slow, fast []float64
}

// estimates are, per slow apply, its wall time - the build duration - the median zero-build apply.
func (l latencyResult) estimates(buildDuration time.Duration) []float64 {
	est := make([]float64, len(l.slow))
	for i, s := range l.slow {
		est[i] = s - buildDuration.Seconds() - median(l.fast)
	}
	return est
}

// latencyRuns applies one template at a time, against the zero-time emulator and the slow one. The
// end is when the CLI exits, so it also holds saving the state and stopping the provider: an upper
// bound.
func (b *bench) latencyRuns(r *results) error {
	one := append([]string{"apply", "-auto-approve"}, sized(1)...)
	destroy := append([]string{"destroy", "-auto-approve"}, sized(1)...)
	for i := 1; i <= b.o.runs; i++ {
		dir := filepath.Join(b.work, fmt.Sprintf("latency-fast-%d", i))
		if err := writeConfig(dir, sandbox, fmt.Sprintf("lat-fast-%d", i)); err != nil {
			return err
		}
		took, err := b.tf(dir, "apply", b.fast.url, one...)
		if err != nil {
			return err
		}
		r.latency.fast = append(r.latency.fast, took)
		if _, err := b.tf(dir, "destroy", b.fast.url, destroy...); err != nil {
			return err
		}

		dir = filepath.Join(b.work, fmt.Sprintf("latency-slow-%d", i))
		prefix := fmt.Sprintf("lat-slow-%d", i)
		if err := writeConfig(dir, sandbox, prefix); err != nil {
			return err
		}
		took, err = b.tf(dir, "apply", b.slow.url, one...)
		end := time.Now()
		if err != nil {
			return err
		}
		r.latency.slow = append(r.latency.slow, took)
		st, err := b.slow.stats(0)
		if err != nil {
			return err
		}
		builds := finishedBuilds(st, prefix)
		if len(builds) != 1 {
			return fmt.Errorf("%d finished builds of %s-0 in the emulator's stats, want 1", len(builds), prefix)
		}
		r.latency.direct = append(r.latency.direct, end.Sub(*builds[0].ReadyAt).Seconds())
		r.latency.poll = append(r.latency.poll, builds[0].ObservedAt.Sub(*builds[0].ReadyAt).Seconds())
		if _, err := b.tf(dir, "destroy", b.slow.url, destroy...); err != nil {
			return err
		}
	}
	return nil
}

// finishedBuilds are the builds in st of the templates prefix-<index> that started, became ready
// and were seen so, in creation order.
func finishedBuilds(st e2bemu.Stats, prefix string) []e2bemu.BuildStats {
	var kept []e2bemu.BuildStats
	for _, bs := range st.Builds {
		if strings.HasPrefix(bs.Template, prefix+"-") && bs.StartedAt != nil && bs.ReadyAt != nil && bs.ObservedAt != nil {
			kept = append(kept, bs)
		}
	}
	return kept
}
