package main

import (
	"fmt"
	"path/filepath"
	"slices"
	"time"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/emulator/e2bemu"
)

// The team build limit case (issue 10): this many templates in one apply, this many builds at once.
const (
	limitTemplates = 25
	buildLimit     = 5
)

// readyRuns are the ready → done applies of one build duration.
type readyRuns struct {
	duration    time.Duration
	delays      []float64 // per build: observed_at - ready_at
	pollsPerMin []float64 // per apply: status polls ÷ the builds' summed start → ready minutes
	lastToDone  []float64 // per apply: the CLI's exit - its last ready_at
	walls       []float64 // per apply
}

// limitResult is the apply of limitTemplates under a team build limit of buildLimit.
type limitResult struct {
	build       time.Duration
	wall        float64
	builds      int // ready
	creates     int // POST /v3/templates sent, 429s included
	span        float64
	gaps        []float64 // per wave after the first: previous wave's last ready → this wave's last start
	idealWaves  int
	idealSecond float64
}

// buildRuns measures against an emulator of its own, whose build duration and team build limit
// are set through its control path:
//   - ready → done for short and long builds: -par-templates templates per apply, in parallel, so
//     the long case costs one build; each build's observed_at - ready_at (the provider's polling
//     delay), -short-reps applies of short builds, one of long ones;
//   - status polls per build-minute during those builds;
//   - limitTemplates templates under a team build limit of buildLimit: apply wall time vs the
//     ideal ceil(templates / limit) × -limit-build.
func (b *bench) buildRuns(r *results) error {
	for _, c := range []struct {
		duration time.Duration
		reps     int
	}{{b.o.buildDuration, b.o.shortReps}, {b.o.longBuild, 1}} {
		runs := readyRuns{duration: c.duration}
		if err := b.builds.setBuildDuration(c.duration); err != nil {
			return err
		}
		for rep := 1; rep <= c.reps; rep++ {
			b.logf("ready → done: %d templates with %s builds, rep %d/%d", b.o.parTemplates, c.duration, rep, c.reps)
			if err := b.readyRun(&runs, rep); err != nil {
				return err
			}
		}
		r.ready = append(r.ready, runs)
	}
	b.logf("%d templates, build limit %d, %s builds", limitTemplates, buildLimit, b.o.limitBuild)
	return b.limitRun(r)
}

func (b *bench) readyRun(runs *readyRuns, rep int) error {
	prefix := fmt.Sprintf("rd%d-r%d", runs.duration.Milliseconds(), rep)
	dir := filepath.Join(b.work, "ready-"+prefix)
	if err := writeConfig(dir, sandbox, prefix); err != nil {
		return err
	}
	since, err := b.builds.total()
	if err != nil {
		return err
	}
	wall, err := b.tf(dir, "apply", b.builds.url, append([]string{"apply", "-auto-approve"}, sized(b.o.parTemplates)...)...)
	end := time.Now()
	if err != nil {
		return err
	}
	st, err := b.builds.stats(since)
	if err != nil {
		return err
	}
	builds := finishedBuilds(st, prefix)
	if len(builds) != b.o.parTemplates {
		return fmt.Errorf("%d finished builds of %d in the emulator's stats (%s)", len(builds), b.o.parTemplates, prefix)
	}
	var minutes float64
	var last time.Time
	for _, bs := range builds {
		runs.delays = append(runs.delays, bs.ObservedAt.Sub(*bs.ReadyAt).Seconds())
		minutes += bs.ReadyAt.Sub(*bs.StartedAt).Minutes()
		if bs.ReadyAt.After(last) {
			last = *bs.ReadyAt
		}
	}
	runs.walls = append(runs.walls, wall)
	runs.lastToDone = append(runs.lastToDone, end.Sub(last).Seconds())
	runs.pollsPerMin = append(runs.pollsPerMin, ratio(float64(st.Requests[routeStatus]), minutes))
	_, err = b.tf(dir, "destroy", b.builds.url, append([]string{"destroy", "-auto-approve"}, sized(b.o.parTemplates)...)...)
	return err
}

func (b *bench) limitRun(r *results) error {
	if err := b.builds.setBuildDuration(b.o.limitBuild); err != nil {
		return err
	}
	if err := b.builds.setBuildConcurrency(buildLimit); err != nil {
		return err
	}
	dir := filepath.Join(b.work, "limit")
	if err := writeConfig(dir, sandbox, "lim"); err != nil {
		return err
	}
	since, err := b.builds.total()
	if err != nil {
		return err
	}
	res := limitResult{build: b.o.limitBuild, idealWaves: (limitTemplates + buildLimit - 1) / buildLimit}
	res.idealSecond = float64(res.idealWaves) * b.o.limitBuild.Seconds()
	if res.wall, err = b.tf(dir, "apply", b.builds.url, append([]string{"apply", "-auto-approve"}, sized(limitTemplates)...)...); err != nil {
		return err
	}
	st, err := b.builds.stats(since)
	if err != nil {
		return err
	}
	builds := finishedBuilds(st, "lim")
	slices.SortFunc(builds, func(x, y e2bemu.BuildStats) int { return x.StartedAt.Compare(*y.StartedAt) })
	res.creates = st.Requests[routeCreate]
	var lastObserved time.Time
	for _, bs := range builds {
		if bs.Status == "ready" {
			res.builds++
		}
		if bs.ObservedAt.After(lastObserved) {
			lastObserved = *bs.ObservedAt
		}
	}
	if len(builds) > 0 {
		res.span = lastObserved.Sub(*builds[0].StartedAt).Seconds()
	}
	res.gaps = waveGaps(builds, buildLimit)
	r.limit = res
	if _, err := b.tf(dir, "destroy", b.builds.url, append([]string{"destroy", "-auto-approve"}, sized(limitTemplates)...)...); err != nil {
		return err
	}
	return b.builds.setBuildConcurrency(0)
}

// waveGaps are, for each wave of limit builds (in start order) after the first, the time from the
// previous wave's last ready to this wave's last start: what noticing a build is done and getting
// the freed slot add.
func waveGaps(builds []e2bemu.BuildStats, limit int) []float64 {
	var gaps []float64
	for w := 1; w*limit < len(builds); w++ {
		var prevReady, lastStart time.Time
		for _, bs := range builds[(w-1)*limit : w*limit] {
			if bs.ReadyAt.After(prevReady) {
				prevReady = *bs.ReadyAt
			}
		}
		for _, bs := range builds[w*limit : min((w+1)*limit, len(builds))] {
			if bs.StartedAt.After(lastStart) {
				lastStart = *bs.StartedAt
			}
		}
		gaps = append(gaps, lastStart.Sub(prevReady).Seconds())
	}
	return gaps
}
