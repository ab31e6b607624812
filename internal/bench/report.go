package main

import (
	"fmt"
	"io"
	"maps"
	"math"
	"os"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders/e2b"
	"github.com/sandboxtf/terraform-provider-sandbox/internal/emulator/e2bemu"
)

// writeReport renders r to path, replacing it only once the whole report is written.
func writeReport(path string, r *results) error {
	var sb strings.Builder
	render(&sb, r)
	if err := os.WriteFile(path+".tmp", []byte(sb.String()), 0o644); err != nil {
		return err
	}
	return os.Rename(path+".tmp", path)
}

// render writes the report: BENCHMARKS.md.
func render(w io.Writer, r *results) {
	p := func(format string, args ...any) { _, _ = fmt.Fprintf(w, format+"\n", args...) }
	n := r.largest()
	p("# Benchmarks")
	p("")
	p("Written by `make bench` (internal/bench); every run overwrites it. Numbers are medians; wall times in seconds.")
	p("")
	p("| | |")
	p("|---|---|")
	p("| date | %s |", r.header.date.Format(time.RFC3339))
	p("| machine | %s |", r.header.machine)
	p("| load average (1/5/15 min) | at start %s, at end %s (other work on the machine skews the times) |", r.loadStart, r.loadEnd)
	if r.note != "" {
		p("| note | %s |", r.note)
	}
	p("| Go | %s |", r.header.goVer)
	p("| CLIs | %s |", r.header.clis)
	p("| provider | %s |", r.header.provider)
	p("| set-up | E2B emulator (cmd/sandbox-emulator) on 127.0.0.1, provider via dev_overrides, `-parallelism=%d`, %d reps per scale measurement, %d runs per latency/schema measurement |",
		parallelism, r.reps, r.runs)
	p("")
	p("## Goals")
	p("")
	p("| goal | measured | |")
	p("|---|---|---|")
	for _, size := range r.sizes {
		a, f := r.ratioOf(sandbox, data, size, "apply"), r.ratioOf(sandbox, data, size, "refresh")
		p("| apply of %d templates ≤ 1.3 × %d terraform_data | %s× | %s |", size, size, f2(a), goal(a, 1.3))
		p("| refresh of %d templates ≤ 1.3 × %d terraform_data | %s× | %s |", size, size, f2(f), goal(f, 1.3))
	}
	for _, g := range []struct {
		label, op string
		goal      float64
	}{{"apply", "apply", 2.0}, {"no-op plan", "plan", 2.0}, {"refresh", "refresh", 1.8}} {
		v := r.ratioOf(sandbox, floorThing, n, g.op)
		p("| %s of %d templates ≤ %.1f × %d floor_thing | %s× | %s |", g.label, n, g.goal, n, f2(v), goal(v, g.goal))
	}
	planNs, planAllocs := r.goBenchMedian("TemplatePlanRPCs", "ns/op"), r.goBenchMedian("TemplatePlanRPCs", "allocs/op")
	floorNs, floorAllocs := r.goBenchMedian("SchemaFloorPlanRPCs", "ns/op"), r.goBenchMedian("SchemaFloorPlanRPCs", "allocs/op")
	p("| `BenchmarkTemplatePlanRPCs` ≤ 1.0 ms/op | %s ms | %s |", f2(planNs/1e6), goal(planNs, 1e6))
	p("| `BenchmarkTemplatePlanRPCs` ≤ 6,000 allocs/op | %s | %s |", whole(planAllocs), goal(planAllocs, 6000))
	perRefresh := ratio(float64(total(r.requests[requestKey{n, "refresh"}])), float64(n))
	p("| refresh costs ≤ 1 API request per template | %s | %s |", shortest(perRefresh), goal(perRefresh, 1))
	direct := median(r.latency.direct)
	p("| build ready → create finished ≤ 1 s (median), one template, %s build | %s s | %s |", seconds(r.buildDuration), f2(direct), goal(direct, 1))
	renderBuildGoals(p, r)
	p("")
	p("The floor: %d `floor_thing` of internal/benchfloor, the smallest terraform-plugin-framework provider (two", n)
	p("attributes, no API), take %s× terraform_data to apply and", f2(r.ratioOf(floorThing, data, n, "apply")))
	p("%s× to refresh: no plugin provider gets below", f2(r.ratioOf(floorThing, data, n, "refresh")))
	p("that on this CLI, since terraform_data runs inside it (no plugin process, no gRPC, no framework).")
	p("sandbox_template takes %s× the floor to apply and", f2(r.ratioOf(sandbox, floorThing, n, "apply")))
	p("%s× to refresh: its schema (%d attributes, nested ones", f2(r.ratioOf(sandbox, floorThing, n, "refresh")), r.startup.attributes)
	p("included, to validate, plan and render), its validation and plan modification, and its API calls.")
	p("")
	p("The second floor: %d `floor_template` (internal/benchfloor, schemafloor.Of) have sandbox_template's", n)
	p("schema, the same configuration, and no logic: no validators, plan modifiers, ValidateConfig, ModifyPlan or API.")
	p("They take %s× floor_thing to apply, %s× to plan and", f2(r.ratioOf(floorTmpl, floorThing, n, "apply")), f2(r.ratioOf(floorTmpl, floorThing, n, "plan")))
	p("%s× to refresh: what the framework and the CLI cost for this schema, whatever a provider does.", f2(r.ratioOf(floorTmpl, floorThing, n, "refresh")))
	p("What sandbox_template adds to it, the provider's own share: %s× to apply,", f2(r.ratioOf(sandbox, floorTmpl, n, "apply")))
	p("%s× to plan, %s× to refresh (this includes its API requests, below).", f2(r.ratioOf(sandbox, floorTmpl, n, "plan")), f2(r.ratioOf(sandbox, floorTmpl, n, "refresh")))
	p("In process, planning one template costs %s allocations against the schema floor's", whole(planAllocs))
	p("%s (%s×) and %s× its time (%s ms).", whole(floorAllocs), f2(ratio(planAllocs, floorAllocs)), f2(ratio(planNs, floorNs)), f2(floorNs/1e6))
	if goal(floorAllocs, 6000) != "met" || goal(floorNs, 1e6) != "met" {
		p("The goals of 1.0 ms and 6,000 allocations are below what the framework alone spends on this schema.")
	}
	p("")
	p("## Apply and refresh: sandbox_template vs terraform_data and the floor")
	p("")
	p("Each rep applies N resources in a fresh directory, refreshes (`apply -refresh-only`), plans (must be empty) and destroys.")
	p("Ratio = sandbox_template / terraform_data; floor ratio = sandbox_template / floor_thing; schema ratio =")
	p("sandbox_template / floor_template (same schema, no logic).")
	p("")
	p("| N | operation | sandbox_template | terraform_data | floor_thing | floor_template | ratio | floor ratio | schema ratio | sandbox_template runs |")
	p("|---|---|---|---|---|---|---|---|---|---|")
	for _, size := range r.sizes {
		for _, op := range operations {
			s := r.medianOf(sandbox, size, op.name)
			p("| %d | %s | %s | %s | %s | %s | %s× | %s× | %s× | %s |", size, op.label, f2(s), f2(r.medianOf(data, size, op.name)),
				f2(r.medianOf(floorThing, size, op.name)), f2(r.medianOf(floorTmpl, size, op.name)),
				f2(r.ratioOf(sandbox, data, size, op.name)), f2(r.ratioOf(sandbox, floorThing, size, op.name)), f2(r.ratioOf(sandbox, floorTmpl, size, op.name)),
				list(r.times[scaleKey{sandbox, size, op.name}]))
		}
	}
	p("")
	p("## API requests per operation (counted by the emulator)")
	p("")
	p("| N | operation | requests | per template | per template, by route |")
	p("|---|---|---|---|---|")
	for _, size := range r.sizes {
		for _, op := range operations {
			counts := r.requests[requestKey{size, op.name}]
			p("| %d | %s | %d | %s | %s |", size, op.name, total(counts), shortest(float64(total(counts))/float64(size)), routes(counts, size))
		}
	}
	p("")
	renderLatency(p, r)
	p("")
	renderBuilds(p, r)
	p("")
	p("## Provider start-up")
	p("")
	p("| | median |")
	p("|---|---|")
	with, without := median(r.startup.with), median(r.startup.without)
	p("| `terraform providers schema -json` with the provider | %s s |", f2(with))
	p("| the same with only terraform's built-in provider | %s s |", f2(without))
	p("| difference: starting the provider and its schema | %s s |", f2(with-without))
	p("")
	p("In process (`go test -run '^$' -bench . ./internal/provider/`, %d runs; schema cold = a new provider server, warm = the same", r.runs)
	p("again; TemplatePlanRPCs = ValidateResourceConfig + PlanResourceChange of one new template, as for every instance of a plan;")
	p("SchemaFloorPlanRPCs = the same for sandbox_template's schema without logic, schemafloor.Of; CheckTrue/<backend> =")
	p("what one sandbox_template_check of `true` costs the provider against that backend's emulator, from the sandbox's start")
	p("to the command's result and the sandbox's end, `go test -bench CheckTrue ./internal/builders/<backend>/`):")
	p("")
	p("```")
	for _, line := range r.goBench {
		p("%s", line)
	}
	p("```")
	p("")
	p("## Peak RSS during the apply of %d templates", r.rss.n)
	p("")
	p("VmHWM polled every 50 ms, in an extra untimed apply; Terraform starts the provider once per phase, the peak is the largest.")
	p("")
	p("| process | peak RSS |")
	p("|---|---|")
	p("| terraform-provider-sandbox | %s |", mib(r.rss.providerKB))
	p("| terraform | %s |", mib(r.rss.terraformKB))
	p("")
	cores := runtime.NumCPU()
	p("CPU time of that apply (same polls; on %d cores it is CPU-bound as the sum nears %d × its wall time):", cores, cores)
	p("provider processes %s s, terraform itself %s s, in %s s wall.", f2(r.rss.providerCPU), f2(r.rss.terraformCPU), f2(r.rss.wall))
}

// renderBuildsOnly is -only builds: the build measurements' goals and section.
func renderBuildsOnly(w io.Writer, r *results, machine string) {
	p := func(format string, args ...any) { _, _ = fmt.Fprintf(w, format+"\n", args...) }
	p("load average at start %s, at end %s, %s", r.loadStart, r.loadEnd, machine)
	p("")
	p("| goal | measured | |")
	p("|---|---|---|")
	renderBuildGoals(p, r)
	p("")
	renderBuilds(p, r)
}

type printer func(format string, args ...any)

// renderBuildGoals are the goal rows of the build measurements.
func renderBuildGoals(p printer, r *results) {
	for _, runs := range r.ready {
		d := median(runs.delays)
		p("| build ready → provider observes it done ≤ 1 s (median), %s builds, %d templates in parallel | %s s | %s |",
			seconds(runs.duration), r.parTemplates, f2(d), goal(d, 1))
	}
	polls := median(r.ready[len(r.ready)-1].pollsPerMin)
	p("| status requests per build-minute ≤ 60 (%s builds; E2B's SDK makes 300) | %s | %s |", seconds(r.longBuild), f2(polls), goal(polls, 60))
	limitRatio := ratio(r.limit.wall, r.limit.idealSecond)
	p("| apply of %d templates, build limit %d ≤ 1.2 × ceil(%d/%d) × build time | %s× (%s s vs %s s) | %s |", limitTemplates, buildLimit,
		limitTemplates, buildLimit, f2(limitRatio), f2(r.limit.wall), shortest(r.limit.idealSecond), goal(limitRatio, 1.2))
}

func renderLatency(p printer, r *results) {
	l, build := r.latency, seconds(r.buildDuration)
	p("## Build ready → create finished")
	p("")
	p("Single-template applies against an emulator whose builds take %s (%d runs). *Direct*: the CLI's exit minus the", build, r.runs)
	p("emulator's `ready_at` (build start + duration, from `GET %s`); it includes saving the state and stopping", e2bemu.StatsPath)
	p("the provider, so it is an upper bound. *Polling*: the status poll that first saw it ready (`observed_at`) minus `ready_at`.")
	p("*Estimate*: apply wall time − %s − the median zero-build apply.", build)
	p("")
	p("| | median | runs |")
	p("|---|---|---|")
	est := l.estimates(r.buildDuration)
	p("| direct: ready → CLI done | %s s | %s |", f2(median(l.direct)), list(l.direct))
	p("| of which polling delay | %s s | %s |", f2(median(l.poll)), list(l.poll))
	p("| estimate | %s s | %s |", f2(median(est)), list(est))
	p("| apply, %s build | %s s | %s |", build, f2(median(l.slow)), list(l.slow))
	p("| apply, zero-time build | %s s | %s |", f2(median(l.fast)), list(l.fast))
}

func renderBuilds(p printer, r *results) {
	short, long := r.ready[0], r.ready[len(r.ready)-1]
	p("## Builds that take time: ready → done, status polls, the build limit")
	p("")
	p("An emulator of its own, its build duration and team build limit set through `POST %sbuild-duration` and", e2bemu.ControlPrefix)
	p("`%sbuild-concurrency`. Each apply creates %d templates in parallel (`-parallelism=%d`), so the %s case", e2bemu.ControlPrefix, r.parTemplates, parallelism, seconds(long.duration))
	p("costs %s, not %d × %s. *Ready → observed*: per build, `observed_at` (the status poll that first saw it", seconds(long.duration), r.parTemplates, seconds(long.duration))
	p("ready) − `ready_at` (start + duration), from `GET %s`; that is when the provider knows the build is", e2bemu.StatsPath)
	p("done (the create then returns). *Last ready → CLI done*: the CLI's exit − the apply's last `ready_at` (includes saving")
	p("state and stopping the provider). *Status polls per build-minute*: `GET .../builds/{buildID}/status` counted during the")
	p("apply ÷ the builds' summed start → ready minutes. The provider polls at %s, ×%g each time, up to %s.",
		seconds(e2b.DefaultPollInterval), e2b.PollGrowth, seconds(e2b.DefaultMaxPollInterval))
	p("")
	p("| build | applies × templates | ready → observed, median | max | last ready → CLI done | apply wall | status polls per build-minute |")
	p("|---|---|---|---|---|---|---|")
	for _, runs := range r.ready {
		p("| %s | %d × %d | %s s | %s s | %s s | %s s | %s |", seconds(runs.duration), len(runs.walls), r.parTemplates, f2(median(runs.delays)),
			f2(maxOf(runs.delays)), list(runs.lastToDone), list(runs.walls), list(runs.pollsPerMin))
	}
	p("")
	p("Ready → observed, every build: %s: %s; %s: %s.", seconds(short.duration), list(short.delays), seconds(long.duration), list(long.delays))
	p("The polls come %s … s after the start, so where a duration falls in that schedule decides the", list(pollTimes(5)))
	p("delay: the schedule alone predicts %s s for %s builds and %s s for %s ones (the rest is the requests' own time).",
		f2(pollLag(short.duration)), seconds(short.duration), f2(pollLag(long.duration)), seconds(long.duration))
	p("")
	lim, build, retry := r.limit, seconds(r.limit.build), seconds(e2b.SlotPollInterval)
	p("### %d templates, team build limit %d", limitTemplates, buildLimit)
	p("")
	p("One apply of %d templates (`-parallelism=%d`) while the emulator answers `POST /v3/templates` with 429 beyond %d", limitTemplates, parallelism, buildLimit)
	p("builds in flight; the provider waits the 429 out, retrying about every %s. Ideal: ceil(%d/%d) = %d waves × %s = %s s.",
		retry, limitTemplates, buildLimit, lim.idealWaves, build, shortest(lim.idealSecond))
	p("Builds take %s: long enough that the ideal (%s s) dwarfs Terraform's own cost of an apply of %d", build, shortest(lim.idealSecond), limitTemplates)
	p("(about a second with zero-time builds, see above), short enough that the run costs about a minute. The per-wave costs")
	p("the goal is about, noticing a build is done (polls up to %s apart) and getting the freed slot (429 retries about %s", seconds(e2b.DefaultMaxPollInterval), retry)
	p("apart), do not shrink with the build time, so %s builds weigh them %s× more than builds of a minute (E2B's real", build, f2(ratio(60, lim.build.Seconds())))
	p("builds take minutes): a strict test. With 2 s builds the 429 retries alone (up to about %s lost per wave) could make", retry)
	p("1.5×, whatever the rest did; with 60 s builds the run would cost over 5 minutes and the same costs would vanish in the ideal.")
	p("")
	p("| | |")
	p("|---|---|")
	p("| apply wall time | %s s |", f2(lim.wall))
	p("| ideal, ratio | %s s, %s× |", shortest(lim.idealSecond), f2(ratio(lim.wall, lim.idealSecond)))
	p("| builds ready | %d of %d |", lim.builds, limitTemplates)
	p("| `POST /v3/templates` sent (the excess over %d answered 429) | %d |", limitTemplates, lim.creates)
	p("| first build start → last build observed | %s s |", f2(lim.span))
	p("| per wave: previous wave's last ready → this wave's last start | %s s |", list(lim.gaps))
}

// total is the number of requests in counts.
func total(counts map[string]int) int {
	sum := 0
	for _, c := range counts {
		sum += c
	}
	return sum
}

// routes are an operation's requests per template, by route: "1× `GET /templates`, ...".
func routes(counts map[string]int, n int) string {
	if len(counts) == 0 {
		return "none"
	}
	var parts []string
	for _, route := range slices.Sorted(maps.Keys(counts)) {
		parts = append(parts, fmt.Sprintf("%s× `%s`", shortest(float64(counts[route])/float64(n)), route))
	}
	return strings.Join(parts, ", ")
}

func maxOf(values []float64) float64 {
	if len(values) == 0 {
		return math.NaN()
	}
	return slices.Max(values)
}

// whole prints a count without decimals (truncated, as the median of two may have a half).
func whole(v float64) string {
	if math.IsNaN(v) {
		return "n/a"
	}
	return fmt.Sprintf("%d", int64(v))
}

func mib(kb int) string {
	if kb == 0 {
		return "not seen"
	}
	return fmt.Sprintf("%.1f MiB", float64(kb)/1024)
}
