package main

import (
	"strconv"
	"time"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders/e2b"
)

// pollTimes are the E2B builder's first n status polls after the one at the build's start, in
// seconds after it: the waits start at DefaultPollInterval and grow by e2b.NextPollDelay.
func pollTimes(n int) []float64 {
	times := make([]float64, 0, n)
	var at time.Duration
	for wait := e2b.DefaultPollInterval; len(times) < n; wait = e2b.NextPollDelay(wait, e2b.DefaultMaxPollInterval) {
		at += wait
		times = append(times, at.Seconds())
	}
	return times
}

// pollLag is how long after d the schedule's next poll comes: the polling delay it alone predicts
// for a build of d.
func pollLag(d time.Duration) float64 {
	var at time.Duration
	for wait := e2b.DefaultPollInterval; at < d; wait = e2b.NextPollDelay(wait, e2b.DefaultMaxPollInterval) {
		at += wait
	}
	return (at - d).Seconds()
}

// seconds says a duration as the report does: "250 ms", "1.1 s", "60 s".
func seconds(d time.Duration) string {
	if d < time.Second {
		return strconv.FormatInt(d.Milliseconds(), 10) + " ms"
	}
	return strconv.FormatFloat(d.Seconds(), 'f', -1, 64) + " s"
}
