package main

import (
	"os"
	"slices"
	"strings"
	"testing"
	"time"
)

// fixture is a run with round numbers: sandbox_template takes 2 s wherever terraform_data takes
// 1 s, floor_thing 1.6 s and floor_template 1.8 s.
func fixture() *results {
	r := &results{
		options: options{sizes: []int{50, 200}, reps: 3, runs: 5, buildDuration: 2 * time.Second, longBuild: time.Minute,
			parTemplates: 5, shortReps: 3, limitBuild: 10 * time.Second},
		header:    header{date: time.Date(2026, 12, 3, 10, 59, 28, 0, time.UTC), machine: "2 CPUs, a model, 23.5 GiB", goVer: "go1.26 linux/amd64", clis: "Terraform v1.5.7", provider: "commit abc1234"},
		loadStart: "0.24 0.91 2.79", loadEnd: "0.82 0.99 2.37",
		rss:     rssResult{n: 200, providerKB: 67277, terraformKB: 73728, providerCPU: 3.03, terraformCPU: 1.98, wall: 3.46},
		latency: latencyResult{direct: []float64{0.06, 0.05, 0.07}, poll: []float64{0.04}, slow: []float64{2.3, 2.28}, fast: []float64{0.24, 0.26}},
		ready: []readyRuns{
			{duration: 2 * time.Second, delays: []float64{0.04, 0.05}, pollsPerMin: []float64{180.18}, lastToDone: []float64{0.06}, walls: []float64{2.33}},
			{duration: time.Minute, delays: []float64{0.42, 0.5}, pollsPerMin: []float64{59}, lastToDone: []float64{0.45}, walls: []float64{60.72}},
		},
		limit:   limitResult{build: 10 * time.Second, wall: 53.08, builds: 25, creates: 201, span: 52.68, gaps: []float64{0.88, 0.08}, idealWaves: 5, idealSecond: 50},
		startup: startupResult{with: []float64{0.07}, without: []float64{0.03}, attributes: 92},
		goBench: []string{
			"BenchmarkTemplatePlanRPCs-2      	     350	   3167793 ns/op	 2334192 B/op	   22865 allocs/op",
			"BenchmarkSchemaFloorPlanRPCs-2   	     390	   2920091 ns/op	 2115636 B/op	   20700 allocs/op",
		},
	}
	seconds := map[kind]float64{sandbox: 2, data: 1, floorThing: 1.6, floorTmpl: 1.8}
	for _, n := range r.sizes {
		for _, op := range operations {
			for k, s := range seconds {
				for range r.reps {
					r.addTime(scaleKey{k, n, op.name}, s)
				}
			}
		}
		r.setRequests(requestKey{n, "apply"}, map[string]int{routeCreate: n, routeStatus: 2 * n})
		r.setRequests(requestKey{n, "refresh"}, map[string]int{"GET /templates/{templateID}/tags": n})
	}
	return r
}

func rendered(t *testing.T, r *results) string {
	t.Helper()
	var sb strings.Builder
	render(&sb, r)
	return sb.String()
}

// shape is a report's headings and table header rows, in order: what its tables are.
func shape(report string) []string {
	var s []string
	lines := strings.Split(report, "\n")
	for i, line := range lines {
		if strings.HasPrefix(line, "#") || (i+1 < len(lines) && strings.HasPrefix(lines[i+1], "|---")) {
			s = append(s, line)
		}
	}
	return s
}

// TestReportHasTheCommittedTables: the report has the sections and tables of the committed
// BENCHMARKS.md (written by the bench this program replaces), in the same order.
func TestReportHasTheCommittedTables(t *testing.T) {
	committed, err := os.ReadFile("../../BENCHMARKS.md")
	if err != nil {
		t.Fatal(err)
	}
	got, want := shape(rendered(t, fixture())), shape(string(committed))
	if !slices.Equal(got, want) {
		t.Errorf("the report's headings and tables differ from BENCHMARKS.md's:\n got  %q\n want %q", got, want)
	}
}

// TestReportRows: the figures are the medians and ratios of what was measured, judged against the
// goals, and the poll schedule is the E2B builder's.
func TestReportRows(t *testing.T) {
	r := fixture()
	report := rendered(t, r)
	for _, want := range []string{
		"| apply of 200 templates ≤ 1.3 × 200 terraform_data | 2.00× | **missed** |",
		"| apply of 200 templates ≤ 2.0 × 200 floor_thing | 1.25× | met |",
		"| `BenchmarkTemplatePlanRPCs` ≤ 1.0 ms/op | 3.17 ms | **missed** |",
		"| `BenchmarkTemplatePlanRPCs` ≤ 6,000 allocs/op | 22865 | **missed** |",
		"| refresh costs ≤ 1 API request per template | 1 | met |",
		"| build ready → create finished ≤ 1 s (median), one template, 2 s build | 0.06 s | met |",
		"| build ready → provider observes it done ≤ 1 s (median), 60 s builds, 5 templates in parallel | 0.46 s | met |",
		"| status requests per build-minute ≤ 60 (60 s builds; E2B's SDK makes 300) | 59.00 | met |",
		"| apply of 25 templates, build limit 5 ≤ 1.2 × ceil(25/5) × build time | 1.06× (53.08 s vs 50 s) | met |",
		"| 200 | no-op plan | 2.00 | 1.00 | 1.60 | 1.80 | 2.00× | 1.25× | 1.11× | 2.00, 2.00, 2.00 |",
		"| 50 | apply | 150 | 3 | 2× `GET /templates/{templateID}/builds/{buildID}/status`, 1× `POST /v3/templates` |",
		"| 50 | destroy | 0 | 0 | none |",
		"| estimate | 0.04 s | 0.05, 0.03 |", // 2.3 - 2 - 0.25 and 2.28 - 2 - 0.25
		"| 60 s | 1 × 5 | 0.46 s | 0.50 s | 0.45 s | 60.72 s | 59.00 |",
		"| difference: starting the provider and its schema | 0.04 s |",
		"| terraform-provider-sandbox | 65.7 MiB |",
		"its schema (92 attributes, nested ones",
		"In process, planning one template costs 22865 allocations against the schema floor's\n20700 (1.10×) and 1.08× its time (2.92 ms).",
		// The builder's schedule (e2b.DefaultPollInterval, NextPollDelay, DefaultMaxPollInterval),
		// as the shell benchmark's copy of it printed.
		"The provider polls at 250 ms, ×1.5 each time, up to 1.1 s.",
		"The polls come 0.25, 0.62, 1.19, 2.03, 3.13 … s after the start",
		"the schedule alone predicts 0.03 s for 2 s builds and 0.33 s for 60 s ones",
		"retrying about every 1 s. Ideal: ceil(25/5) = 5 waves × 10 s = 50 s.",
	} {
		if !strings.Contains(report, want) {
			t.Errorf("the report lacks %q", want)
		}
	}
	if strings.Contains(report, "| note |") {
		t.Error("a run without -note has no note row")
	}
	r.note = "a shared machine"
	if report := rendered(t, r); !strings.Contains(report, "| note | a shared machine |") {
		t.Error("-note is the header's note row")
	}
}

// TestTemplateAttributes counts nested attributes, as the report's attribute count does.
func TestTemplateAttributes(t *testing.T) {
	schema := `{"provider_schemas":{"registry.terraform.io/sandboxtf/sandbox":{"resource_schemas":{"sandbox_template":
		{"block":{"attributes":{"id":{},"steps":{"nested_type":{"attributes":{"run":{},"env":{}}}}}}},
		"sandbox_template_tag":{"block":{"attributes":{"x":{}}}}}}}}`
	if got, err := templateAttributes([]byte(schema)); err != nil || got != 4 {
		t.Errorf("templateAttributes = %d, %v; want 4 (id, steps, and steps' run and env)", got, err)
	}
	if _, err := templateAttributes([]byte(`{"provider_schemas":{}}`)); err == nil {
		t.Error("a schema without sandbox_template must be an error")
	}
}
