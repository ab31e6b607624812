package main

// results are everything one run measured, and how it was run: what the report renders.
type results struct {
	options
	header             header
	loadStart, loadEnd string

	times    map[scaleKey][]float64 // seconds, one per rep
	requests map[requestKey]map[string]int
	rss      rssResult
	latency  latencyResult
	ready    []readyRuns // short builds, then long ones
	limit    limitResult
	startup  startupResult
	goBench  []string // `go test -bench` result lines, every run
}

func (r *results) addTime(k scaleKey, seconds float64) {
	if r.times == nil {
		r.times = map[scaleKey][]float64{}
	}
	r.times[k] = append(r.times[k], seconds)
}

func (r *results) setRequests(k requestKey, counts map[string]int) {
	if r.requests == nil {
		r.requests = map[requestKey]map[string]int{}
	}
	r.requests[k] = counts
}

// medianOf is the median time of one scale measurement.
func (r *results) medianOf(k kind, n int, op string) float64 {
	return median(r.times[scaleKey{k, n, op}])
}

// ratioOf is the median time of a over that of b.
func (r *results) ratioOf(a, b kind, n int, op string) float64 {
	return ratio(r.medianOf(a, n, op), r.medianOf(b, n, op))
}

func (r *results) largest() int { return r.sizes[len(r.sizes)-1] }

// goBenchMedian is the median of Benchmark<name>'s unit over the runs.
func (r *results) goBenchMedian(name, unit string) float64 {
	return median(goBenchValues(r.goBench, name, unit))
}
