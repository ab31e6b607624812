#!/usr/bin/env bash
# The benchmark (`make bench`): the locally built provider (a dev override, as in scripts/demo.sh)
# against the bundled E2B emulator on 127.0.0.1, driven by bin/terraform. It measures, and writes to
# BENCHMARKS.md (overwritten):
#   - apply / refresh wall time of N sandbox_template vs N terraform_data, same run, as a ratio,
#     and of N floor_thing (internal/benchfloor: the smallest framework provider, the floor any
#     plugin provider pays, since terraform_data is built into the CLI) and N floor_template
#     (sandbox_template's schema without its logic: what the framework and the CLI pay for it);
#   - E2B API requests per template for create, refresh, no-op plan and destroy (emulator counts);
#   - latency from a build turning ready in the emulator to the create finishing, for single
#     templates and for several in parallel with 2 s and 60 s builds;
#   - status polls per build-minute during 60 s builds;
#   - the apply time of 25 templates against a team build limit of 5, vs ceil(25/5) × build time;
#   - provider start-up: `terraform providers schema -json` and BenchmarkProviderSchema;
#   - in process, the provider's part of planning one template: BenchmarkTemplatePlanRPCs, and
#     BenchmarkSchemaFloorPlanRPCs, the same for the schema without logic;
#   - peak RSS of the provider process during the largest apply.
# It reports; it asserts nothing. The emulator builds in zero time unless asked, so what is timed
# is the provider and Terraform, not a backend.
#
# Knobs (environment): BENCH_SIZES ("50 200"), BENCH_REPS (3), BENCH_RUNS (5: latency and schema
# runs), BENCH_BUILD_DURATION (2s), BENCH_PAR_TEMPLATES (5: templates per ready → done apply),
# BENCH_SHORT_REPS (3: applies of 2 s builds), BENCH_LIMIT_BUILD (10s: build time under the limit),
# BENCH_NOTE (a caveat for the report's header, e.g. who else used the machine),
# BENCH_OUT (BENCHMARKS.md), BENCH_KEEP=1 keeps the working dir. BENCH_ONLY=builds runs only the
# build measurements (ready → done, polls, build limit) and prints their report to stdout.
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
terraform="${TERRAFORM:-$root/bin/terraform}"
tofu="$root/bin/tofu"
provider_bin="$root/bin/terraform-provider-sandbox"
out="${BENCH_OUT:-$root/BENCHMARKS.md}"
read -r -a sizes <<<"${BENCH_SIZES:-50 200}"
reps="${BENCH_REPS:-3}"
runs="${BENCH_RUNS:-5}"
build_duration="${BENCH_BUILD_DURATION:-2s}"
par_templates="${BENCH_PAR_TEMPLATES:-5}"
short_reps="${BENCH_SHORT_REPS:-3}"
limit_templates=25 limit=5 # the case of issue 10
limit_build="${BENCH_LIMIT_BUILD:-10s}"
parallelism=10 # Terraform's default, spelled out so the numbers say what they were taken with
api_key=bench-api-key

# ---------------------------------------------------------------------------------------------
# helpers

die() { echo "bench: $*" >&2; exit 1; }
log() { echo "bench: $*" >&2; }

# need fails early, with the way to get it, rather than halfway through a ten-minute run.
need() {
	local cmd="$1" hint="$2"
	command -v "$cmd" >/dev/null 2>&1 || die "'$cmd' is missing: $hint"
}

now() { date +%s.%N; }

# sub and div do float arithmetic in awk (bash has integers only, bc is not always installed).
sub() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", a - b }'; }
div() { awk -v a="$1" -v b="$2" 'BEGIN { if (b == 0) print "n/a"; else printf "%.2f", a / b }'; }
fmt2() { awk -v a="$1" 'BEGIN { printf "%.2f", a }'; }

# median of the arguments (the mean of the middle two for an even count).
median() {
	printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END {
		if (NR == 0) { print "n/a"; exit }
		if (NR % 2) printf "%.3f", v[(NR + 1) / 2]; else printf "%.3f", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# le prints "met" or "missed" for value <= goal.
le() { awk -v v="$1" -v g="$2" 'BEGIN { print (v != "n/a" && v + 0 <= g + 0) ? "met" : "**missed**" }'; }

# epoch turns the emulator's RFC 3339 timestamps into seconds since the epoch.
epoch() { date -d "$1" +%s.%N; }

# ---------------------------------------------------------------------------------------------
# emulator

emulator_pids=()
cleanup() {
	local pid
	for pid in "${emulator_pids[@]}"; do kill "$pid" 2>/dev/null || true; done
	for pid in "${emulator_pids[@]}"; do wait "$pid" 2>/dev/null || true; done
	if [ "${BENCH_KEEP:-}" = 1 ]; then log "working dir kept: $work"; else rm -rf "$work"; fi
}

# start_emulator NAME BUILD_DURATION: serves an emulator on 127.0.0.1 and sets url_NAME to its URL.
start_emulator() {
	local name="$1" duration="$2" url=""
	"$work/sandbox-emulator" -addr 127.0.0.1:0 -api-key "$api_key" -build-duration "$duration" \
		>"$work/emulator-$name.out" 2>"$work/emulator-$name.log" &
	emulator_pids+=("$!")
	for _ in $(seq 1 100); do
		url="$(sed -n 's/^E2B_API_URL=//p' "$work/emulator-$name.out" 2>/dev/null | head -n1)"
		[ -n "$url" ] && break
		sleep 0.1
	done
	[ -n "$url" ] || die "emulator $name did not start: $(cat "$work/emulator-$name.log")"
	case "$url" in http://127.0.0.1:*) ;; *) die "emulator $name is not on 127.0.0.1: $url" ;; esac
	printf -v "url_$name" '%s' "$url"
}

# stats URL [SINCE]: the emulator's counters (GET /_emulator/stats is neither authenticated nor counted).
stats() { curl -fsS "$1/_emulator/stats?since=${2:-0}"; }
stats_total() { stats "$1" | jq -r .total; }

# ---------------------------------------------------------------------------------------------
# configurations

# write_config DIR KIND PREFIX: N (var.n) resources of KIND "sandbox", "data", "floor" or "schema"
# (floor_template: sandbox_template's schema, the same configuration), ids PREFIX-<index>.
write_config() {
	local dir="$1" kind="$2" prefix="$3"
	mkdir -p "$dir"
	if [ "$kind" = sandbox ] || [ "$kind" = schema ]; then
		local provider=sandbox
		[ "$kind" = schema ] && provider=floor
		cat >"$dir/main.tf" <<-HCL
			terraform {
			  required_providers {
			    $provider = { source = "sandboxtf/$provider" }
			  }
			}
			provider "$provider" {}
			variable "n" { type = number }
			resource "${provider}_template" "t" {
			  count       = var.n
			  backend     = "e2b"
			  template_id = "$prefix-\${count.index}"
			  image       = "python:3.12-slim"
			  start_cmd   = "" # a plain image: no start command (the default is the code interpreter's)
			}
		HCL
	elif [ "$kind" = floor ]; then
		cat >"$dir/main.tf" <<-HCL
			terraform {
			  required_providers {
			    floor = { source = "sandboxtf/floor" }
			  }
			}
			variable "n" { type = number }
			resource "floor_thing" "t" {
			  count = var.n
			  input = "$prefix-\${count.index}"
			}
		HCL
	else
		# The baseline: the same count and distinct inputs, with Terraform's built-in provider.
		cat >"$dir/main.tf" <<-HCL
			variable "n" { type = number }
			resource "terraform_data" "t" {
			  count = var.n
			  input = "$prefix-\${count.index}"
			}
		HCL
	fi
}

# tf DIR LOGNAME ARGS...: one CLI run, quiet; on failure the log's tail says why.
tf() {
	local dir="$1" name="$2" quiet=(-input=false -no-color)
	shift 2
	[ "$1" = providers ] && quiet=() # `providers schema` takes neither flag
	if ! "$terraform" -chdir="$dir" "$@" "${quiet[@]}" >"$dir/$name.log" 2>&1; then
		tail -n 30 "$dir/$name.log" >&2
		die "terraform $* failed in $dir (log: $dir/$name.log)"
	fi
}

# timed VAR CMD...: runs CMD and stores its wall time in seconds in VAR.
timed() {
	local var="$1" start
	shift
	start="$(now)"
	"$@"
	printf -v "$var" '%s' "$(sub "$(now)" "$start")"
}

# counted URL FILE CMD...: runs CMD and writes the emulator's counts of the requests it sent to FILE.
counted() {
	local url="$1" file="$2" since
	shift 2
	since="$(stats_total "$url")"
	"$@"
	stats "$url" "$since" >"$file"
}

# ---------------------------------------------------------------------------------------------
# measurements

declare -A t_apply t_refresh t_plan t_destroy # key "kind n" -> space-separated times
declare -A reqs                               # key "op n" -> the first rep's stats file

# scale_rep N REP: apply, refresh, no-op plan and destroy of N resources, every kind, once each.
# Destroy returns the emulator to empty, so every rep starts alike; the kinds rotate in order
# from rep to rep so that none always runs on a warmer machine.
scale_rep() {
	local n="$1" rep="$2" kind dir d order
	case $((rep % 4)) in
	1) order="sandbox data floor schema" ;;
	2) order="data floor schema sandbox" ;;
	3) order="floor schema sandbox data" ;;
	0) order="schema sandbox data floor" ;;
	esac
	for kind in $order; do
		dir="$work/scale-$kind-$n-$rep"
		write_config "$dir" "$kind" "b$n-r$rep"
		local common=(-var "n=$n" -parallelism="$parallelism")
		counted "$url_fast" "$dir/apply.json" timed d tf "$dir" apply apply -auto-approve "${common[@]}"
		t_apply["$kind $n"]+="$d "
		counted "$url_fast" "$dir/refresh.json" timed d tf "$dir" refresh apply -refresh-only -auto-approve "${common[@]}"
		t_refresh["$kind $n"]+="$d "
		# A second plan must be empty: -detailed-exitcode answers 2 when it is not.
		counted "$url_fast" "$dir/plan.json" timed d tf "$dir" plan plan -detailed-exitcode "${common[@]}"
		t_plan["$kind $n"]+="$d "
		counted "$url_fast" "$dir/destroy.json" timed d tf "$dir" destroy destroy -auto-approve "${common[@]}"
		t_destroy["$kind $n"]+="$d "
		if [ "$kind" = sandbox ] && [ "$rep" = 1 ]; then
			for op in apply refresh plan destroy; do reqs["$op $n"]="$dir/$op.json"; done
		fi
	done
}

# peak_rss N: an extra, untimed apply of N templates while polling VmHWM (the kernel's peak
# resident set) of every provider process Terraform starts (it starts one per phase), and of
# Terraform itself. Untimed because the polling costs CPU on a small machine. The same polls
# read each process's CPU time, to tell whose CPU an apply on 2 cores waits for.
peak_rss_provider=0 peak_rss_terraform=0 cpu_provider=0 cpu_terraform=0 rss_wall=0
peak_rss() {
	local n="$1" dir="$work/rss-$n" tfpid child hwm pid
	local -A cpu=() # pid -> its last seen CPU ticks
	local start
	write_config "$dir" sandbox "rss$n"
	start="$(now)"
	"$terraform" -chdir="$dir" apply -auto-approve -var "n=$n" -parallelism="$parallelism" -input=false -no-color \
		>"$dir/apply.log" 2>&1 &
	tfpid=$!
	while kill -0 "$tfpid" 2>/dev/null; do
		hwm="$(vm_hwm "$tfpid")"
		[ "$hwm" -gt "$peak_rss_terraform" ] && peak_rss_terraform="$hwm"
		cpu_terraform="$(cpu_ticks "$tfpid" "$cpu_terraform")"
		for child in $(pgrep -P "$tfpid" || true); do
			[ "$(readlink "/proc/$child/exe" 2>/dev/null)" = "$provider_bin" ] || continue
			hwm="$(vm_hwm "$child")"
			[ "$hwm" -gt "$peak_rss_provider" ] && peak_rss_provider="$hwm"
			cpu[$child]="$(cpu_ticks "$child" "${cpu[$child]:-0}")"
		done
		sleep 0.05
	done
	wait "$tfpid" || { tail -n 30 "$dir/apply.log" >&2; die "the RSS apply failed (log: $dir/apply.log)"; }
	rss_wall="$(sub "$(now)" "$start")"
	for pid in "${!cpu[@]}"; do cpu_provider=$((cpu_provider + cpu[$pid])); done
	cpu_provider="$(div "$cpu_provider" "$(getconf CLK_TCK)")"
	cpu_terraform="$(div "$cpu_terraform" "$(getconf CLK_TCK)")"
	tf "$dir" destroy destroy -auto-approve -var "n=$n" -parallelism="$parallelism"
}

# cpu_ticks PID LAST: user + system clock ticks of PID so far, or LAST once it is gone. Fields
# counted after the ")" that ends the command name, which may hold spaces.
cpu_ticks() {
	local stat
	stat="$(cat "/proc/$1/stat" 2>/dev/null)" || { echo "$2"; return; }
	stat="${stat##*) }"
	awk '{ print $12 + $13 }' <<<"$stat"
}

# vm_hwm PID: peak RSS in kB, 0 when the process is gone.
vm_hwm() {
	local kb
	kb="$(awk '/^VmHWM:/ { print $2 }' "/proc/$1/status" 2>/dev/null)" || true
	echo "${kb:-0}"
}

# latency_runs: single-template applies against an emulator whose builds take $build_duration.
# Direct: the apply's end minus the moment the emulator's build became ready (its ready_at);
# the polling part of it is when a poll first saw it ready (observed_at) minus ready_at. The end
# is when the CLI exits, so it also holds saving the state and stopping the provider: an upper bound.
# Estimate, for comparison: that apply's wall time - build duration - a zero-build apply's wall time.
lat_direct=() lat_poll=() lat_slow=() lat_fast=()
latency_runs() {
	local i dir d end ready observed
	for i in $(seq 1 "$runs"); do
		dir="$work/latency-fast-$i"
		write_config "$dir" sandbox "lat-fast-$i"
		E2B_API_URL="$url_fast" timed d tf "$dir" apply apply -auto-approve -var n=1
		lat_fast+=("$d")
		E2B_API_URL="$url_fast" tf "$dir" destroy destroy -auto-approve -var n=1

		dir="$work/latency-slow-$i"
		write_config "$dir" sandbox "lat-slow-$i"
		E2B_API_URL="$url_slow" timed d tf "$dir" apply apply -auto-approve -var n=1
		end="$(now)"
		lat_slow+=("$d")
		stats "$url_slow" >"$dir/stats.json"
		ready="$(jq -r --arg t "lat-slow-$i-0" '.builds[] | select(.template == $t) | .ready_at' "$dir/stats.json")"
		observed="$(jq -r --arg t "lat-slow-$i-0" '.builds[] | select(.template == $t) | .observed_at' "$dir/stats.json")"
		[ -n "$ready" ] && [ "$ready" != null ] || die "no ready build for lat-slow-$i-0 in $dir/stats.json"
		lat_direct+=("$(sub "$end" "$(epoch "$ready")")")
		lat_poll+=("$(sub "$(epoch "$observed")" "$(epoch "$ready")")")
		E2B_API_URL="$url_slow" tf "$dir" destroy destroy -auto-approve -var n=1
	done
}

# control URL PATH JSON: one POST to the emulator's control path (no credentials, not counted).
control() { curl -fsS -X POST -H 'Content-Type: application/json' -d "$3" "$1/_emulator/$2" >/dev/null; }

# builds_of FILE PREFIX: the builds in stats FILE of templates PREFIX-<index>, one JSON object a line,
# with the seconds from start to ready and from ready to observed (the provider's polling delay).
builds_of() {
	jq -c --arg p "$2-" '.builds[] | select(.template | startswith($p))
		| select(.ready_at != null and .observed_at != null and .started_at != null)' "$1" |
		while read -r b; do
			local s r o
			s="$(epoch "$(jq -r .started_at <<<"$b")")"
			r="$(epoch "$(jq -r .ready_at <<<"$b")")"
			o="$(epoch "$(jq -r .observed_at <<<"$b")")"
			echo "$(jq -r .template <<<"$b") $(jq -r .status <<<"$b") $s $r $o"
		done
}

# status_polls FILE: GET .../status requests counted in stats FILE.
status_polls() { jq -r '.requests["GET /templates/{templateID}/builds/{buildID}/status"] // 0' "$1"; }

# build_runs: against an emulator of its own (url_builds), whose build duration and team build
# limit are set through its control path:
#   - ready → done for 2 s and 60 s builds: $par_templates templates per apply, in parallel, so the
#     60 s case costs about a minute; each build's observed_at − ready_at (the provider's polling
#     delay, from the emulator's build timelines), $short_reps applies of 2 s builds, one of 60 s;
#   - status polls per build-minute during the 60 s builds (GET .../status counted by the emulator
#     over the sum of the builds' start → ready time);
#   - $limit_templates templates with a team build limit of $limit: apply wall time vs the ideal
#     ceil(templates / limit) × $limit_build build time.
declare -A rd_delay polls_per_min rd_last rd_wall # key: build duration
limit_wall=0 limit_ideal=0 limit_ratio=0 limit_creates=0 limit_builds=0 limit_span=0 limit_gaps=""
build_runs() {
	local dur secs rep dir prefix since end polls minutes t st s r o last nb d
	for dur in 2s 60s; do
		secs="${dur%s}"
		control "$url_builds" build-duration "{\"duration\":\"$dur\"}"
		local nreps=1
		[ "$dur" = 2s ] && nreps="$short_reps"
		for rep in $(seq 1 "$nreps"); do
			prefix="rd$secs-r$rep"
			dir="$work/ready-$secs-$rep"
			write_config "$dir" sandbox "$prefix"
			log "ready → done: $par_templates templates with $dur builds, rep $rep/$nreps"
			since="$(stats_total "$url_builds")"
			E2B_API_URL="$url_builds" timed d tf "$dir" apply apply -auto-approve -var "n=$par_templates" -parallelism="$parallelism"
			end="$(now)"
			rd_wall[$dur]+="$d "
			stats "$url_builds" "$since" >"$dir/stats.json"
			builds_of "$dir/stats.json" "$prefix" >"$dir/builds.txt"
			nb="$(wc -l <"$dir/builds.txt")"
			[ "$nb" = "$par_templates" ] || die "$nb ready builds of $par_templates in $dir/stats.json"
			minutes=0 last=0
			while read -r t st s r o; do
				rd_delay[$dur]+="$(sub "$o" "$r") "
				minutes="$(awk -v m="$minutes" -v s="$s" -v r="$r" 'BEGIN { printf "%.4f", m + (r - s) / 60 }')"
				last="$(awk -v a="$last" -v b="$r" 'BEGIN { print (b > a) ? b : a }')"
			done <"$dir/builds.txt"
			rd_last[$dur]+="$(sub "$end" "$last") "
			polls="$(status_polls "$dir/stats.json")"
			polls_per_min[$dur]+="$(div "$polls" "$minutes") "
			E2B_API_URL="$url_builds" tf "$dir" destroy destroy -auto-approve -var "n=$par_templates" -parallelism="$parallelism"
		done
	done

	control "$url_builds" build-duration "{\"duration\":\"$limit_build\"}"
	control "$url_builds" build-concurrency "{\"limit\":$limit}"
	prefix="lim"
	dir="$work/limit"
	write_config "$dir" sandbox "$prefix"
	log "$limit_templates templates, build limit $limit, $limit_build builds"
	since="$(stats_total "$url_builds")"
	E2B_API_URL="$url_builds" timed limit_wall tf "$dir" apply apply -auto-approve -var "n=$limit_templates" -parallelism="$parallelism"
	stats "$url_builds" "$since" >"$dir/stats.json"
	builds_of "$dir/stats.json" "$prefix" | sort -k3 -g >"$dir/builds.txt"
	limit_builds="$(awk '$2 == "ready"' "$dir/builds.txt" | wc -l)"
	limit_creates="$(jq -r '.requests["POST /v3/templates"] // 0' "$dir/stats.json")"
	limit_ideal="$(awk -v n="$limit_templates" -v l="$limit" -v b="${limit_build%s}" 'BEGIN { printf "%d", int((n + l - 1) / l) * b }')"
	limit_ratio="$(div "$limit_wall" "$limit_ideal")"
	# The first build's start to the last one's observation; and per wave of $limit, the gap from the
	# previous wave's last ready to this wave's last start (what the polling and the 429 waits add).
	limit_span="$(awk 'NR == 1 { s = $3 } { if ($5 > o) o = $5 } END { printf "%.2f", o - s }' "$dir/builds.txt")"
	limit_gaps="$(awk -v l="$limit" '{ s[NR] = $3; r[NR] = $4 } END {
		for (w = 1; w * l < NR; w++) {
			prev = 0; for (i = (w - 1) * l + 1; i <= w * l; i++) if (r[i] > prev) prev = r[i]
			last = 0; for (i = w * l + 1; i <= (w + 1) * l && i <= NR; i++) if (s[i] > last) last = s[i]
			printf "%s%.2f", (w > 1 ? ", " : ""), last - prev
		} }' "$dir/builds.txt")"
	E2B_API_URL="$url_builds" tf "$dir" destroy destroy -auto-approve -var "n=$limit_templates" -parallelism="$parallelism"
	control "$url_builds" build-concurrency '{"limit":0}'
}

# schema_runs: `terraform providers schema -json` with the provider, and without it (only
# Terraform's built-in provider) so the difference is what starting the provider adds.
schema_with=() schema_without=()
schema_runs() {
	local i d with="$work/schema-with" without="$work/schema-without"
	write_config "$with" sandbox schema
	write_config "$without" data schema
	for i in $(seq 1 "$runs"); do
		timed d tf "$with" schema providers schema -json
		schema_with+=("$d")
		timed d tf "$without" schema providers schema -json
		schema_without+=("$d")
	done
	jq -e '.provider_schemas["registry.terraform.io/sandboxtf/sandbox"].resource_schemas.sandbox_template' \
		"$with/schema.log" >/dev/null || die "the schema output holds no sandbox_template: $with/schema.log"
}

# schema_attributes: how many attributes sandbox_template has, nested ones included, from the
# schema that schema_runs printed.
schema_attributes() {
	jq '.provider_schemas["registry.terraform.io/sandboxtf/sandbox"].resource_schemas.sandbox_template
		| [.. | .attributes? // empty | objects | keys[]] | length' "$work/schema-with/schema.log"
}

# go_bench: the lines of BenchmarkProviderSchema, BenchmarkTemplatePlanRPCs and BenchmarkSchemaFloorPlanRPCs,
# $runs runs each, as `go test -bench` prints them. The runs take turns (not -count, which runs one
# benchmark $runs times before the next), so a change in the machine's load falls on all of them alike.
go_bench() {
	local i
	: >"$work/gobench.log"
	for i in $(seq 1 "$runs"); do
		(cd "$root" && go test -count=1 -run '^$' -bench '^Benchmark(ProviderSchema|TemplatePlanRPCs|SchemaFloorPlanRPCs)$' -benchmem ./internal/provider/) \
			>>"$work/gobench.log" 2>&1 || { cat "$work/gobench.log" >&2; die "the Go benchmarks failed"; }
	done
	grep -E '^Benchmark(ProviderSchema|TemplatePlanRPCs|SchemaFloorPlanRPCs)' "$work/gobench.log"
}

# gobench_median NAME UNIT: the median of Benchmark<NAME>'s UNIT (ns/op, allocs/op) over go_bench's runs.
gobench_median() {
	median $(awk -v name="Benchmark$1-" -v unit="$2" 'index($1, name) == 1 { for (i = 2; i <= NF; i++) if ($i == unit) print $(i - 1) }' "$work/gobench.log") |
		awk '{ printf "%d", $1 }'
}

# floor_goal N LABEL ARRAY GOAL: the goal row "LABEL of N templates ≤ GOAL × N floor_thing".
floor_goal() {
	local -n times="$3"
	local ratio
	ratio="$(div "$(median ${times["sandbox $1"]})" "$(median ${times["floor $1"]})")"
	echo "| $2 of $1 templates ≤ $4 × $1 floor_thing | ${ratio}× | $(le "$ratio" "$4") |"
}

# ---------------------------------------------------------------------------------------------
# report

# per_template FILE N: "total (per template)" and the routes, per template, of one operation.
per_template() {
	local file="$1" n="$2"
	jq -r --argjson n "$n" '
		[.requests | to_entries[] | .value] | add // 0 | "\(.) | \(. / $n)"' "$file"
}
routes() {
	local file="$1" n="$2"
	jq -r --argjson n "$n" '
		[.requests | to_entries | sort_by(.key)[] | "\(.value / $n)× `\(.key)`"] | if length == 0 then "none" else join(", ") end' "$file"
}

machine() {
	local model mem
	model="$(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo)"
	mem="$(awk '/^MemTotal:/ { printf "%.1f GiB", $2 / 1048576 }' /proc/meminfo)"
	echo "$(nproc) CPUs, ${model:-unknown model}, $mem"
}

report() {
	local n kind a r ratio_a ratio_r file git_rev dirty
	git_rev="$(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)"
	dirty="$(git -C "$root" status --porcelain --untracked-files=no -- . ':(exclude)BENCHMARKS.md' 2>/dev/null | wc -l)"
	{
		echo "# Benchmarks"
		echo
		echo "Written by \`make bench\` (scripts/bench.sh); every run overwrites it. Numbers are medians; wall times in seconds."
		echo
		echo "| | |"
		echo "|---|---|"
		echo "| date | $(date -u +%Y-%m-%dT%H:%M:%SZ) |"
		echo "| machine | $(machine) |"
		echo "| load average (1/5/15 min) | at start $load_start, at end $(cut -d' ' -f1-3 /proc/loadavg) (other work on the machine skews the times) |"
		[ -n "${BENCH_NOTE:-}" ] && echo "| note | $BENCH_NOTE |"
		echo "| Go | $(go version | awk '{ print $3, $4 }') |"
		echo "| CLIs | $("$terraform" version | head -n1)$([ -x "$tofu" ] && echo ", $("$tofu" version | head -n1) (built, not benchmarked)") |"
		echo "| provider | commit $git_rev$([ "$dirty" -gt 0 ] && echo " plus $dirty uncommitted changed files in the tree") |"
		echo "| set-up | E2B emulator (cmd/sandbox-emulator) on 127.0.0.1, provider via dev_overrides, \`-parallelism=$parallelism\`, $reps reps per scale measurement, $runs runs per latency/schema measurement |"
		echo
		echo "## Goals"
		echo
		echo "| goal | measured | |"
		echo "|---|---|---|"
		for n in "${sizes[@]}"; do
			ratio_a="$(div "$(median ${t_apply["sandbox $n"]})" "$(median ${t_apply["data $n"]})")"
			ratio_r="$(div "$(median ${t_refresh["sandbox $n"]})" "$(median ${t_refresh["data $n"]})")"
			echo "| apply of $n templates ≤ 1.3 × $n terraform_data | ${ratio_a}× | $(le "$ratio_a" 1.3) |"
			echo "| refresh of $n templates ≤ 1.3 × $n terraform_data | ${ratio_r}× | $(le "$ratio_r" 1.3) |"
		done
		n="${sizes[-1]}"
		floor_goal "$n" apply t_apply 2.0
		floor_goal "$n" "no-op plan" t_plan 2.0
		floor_goal "$n" refresh t_refresh 1.8
		echo "| \`BenchmarkTemplatePlanRPCs\` ≤ 1.0 ms/op | $(fmt2 "$(div "$(gobench_median TemplatePlanRPCs ns/op)" 1000000)") ms | $(le "$(gobench_median TemplatePlanRPCs ns/op)" 1000000) |"
		echo "| \`BenchmarkTemplatePlanRPCs\` ≤ 6,000 allocs/op | $(gobench_median TemplatePlanRPCs allocs/op) | $(le "$(gobench_median TemplatePlanRPCs allocs/op)" 6000) |"
		r="$(jq -r --argjson n "$n" '([.requests[]] | add // 0) / $n' "${reqs["refresh $n"]}")"
		echo "| refresh costs ≤ 1 API request per template | $r | $(le "$r" 1) |"
		a="$(median "${lat_direct[@]}")"
		echo "| build ready → create finished ≤ 1 s (median), one template, $build_duration build | $(fmt2 "$a") s | $(le "$a" 1) |"
		builds_goals
		echo
		n="${sizes[-1]}"
		echo "The floor: $n \`floor_thing\` of internal/benchfloor, the smallest terraform-plugin-framework provider (two"
		echo "attributes, no API), take $(div "$(median ${t_apply["floor $n"]})" "$(median ${t_apply["data $n"]})")× terraform_data to apply and"
		echo "$(div "$(median ${t_refresh["floor $n"]})" "$(median ${t_refresh["data $n"]})")× to refresh: no plugin provider gets below"
		echo "that on this CLI, since terraform_data runs inside it (no plugin process, no gRPC, no framework)."
		echo "sandbox_template takes $(div "$(median ${t_apply["sandbox $n"]})" "$(median ${t_apply["floor $n"]})")× the floor to apply and"
		echo "$(div "$(median ${t_refresh["sandbox $n"]})" "$(median ${t_refresh["floor $n"]})")× to refresh: its schema ($(schema_attributes) attributes, nested ones"
		echo "included, to validate, plan and render), its validation and plan modification, and its API calls."
		echo
		echo "The second floor: $n \`floor_template\` (internal/benchfloor, provider.NewSchemaFloor) have sandbox_template's"
		echo "schema, the same configuration, and no logic: no validators, plan modifiers, ValidateConfig, ModifyPlan or API."
		echo "They take $(div "$(median ${t_apply["schema $n"]})" "$(median ${t_apply["floor $n"]})")× floor_thing to apply, $(div "$(median ${t_plan["schema $n"]})" "$(median ${t_plan["floor $n"]})")× to plan and"
		echo "$(div "$(median ${t_refresh["schema $n"]})" "$(median ${t_refresh["floor $n"]})")× to refresh: what the framework and the CLI cost for this schema, whatever a provider does."
		echo "What sandbox_template adds to it, the provider's own share: $(div "$(median ${t_apply["sandbox $n"]})" "$(median ${t_apply["schema $n"]})")× to apply,"
		echo "$(div "$(median ${t_plan["sandbox $n"]})" "$(median ${t_plan["schema $n"]})")× to plan, $(div "$(median ${t_refresh["sandbox $n"]})" "$(median ${t_refresh["schema $n"]})")× to refresh (this includes its API requests, below)."
		echo "In process, planning one template costs $(gobench_median TemplatePlanRPCs allocs/op) allocations against the schema floor's"
		echo "$(gobench_median SchemaFloorPlanRPCs allocs/op) ($(div "$(gobench_median TemplatePlanRPCs allocs/op)" "$(gobench_median SchemaFloorPlanRPCs allocs/op)")×) and $(div "$(gobench_median TemplatePlanRPCs ns/op)" "$(gobench_median SchemaFloorPlanRPCs ns/op)")× its time ($(fmt2 "$(div "$(gobench_median SchemaFloorPlanRPCs ns/op)" 1000000)") ms)."
		if [ "$(le "$(gobench_median SchemaFloorPlanRPCs allocs/op)" 6000)" != met ] || [ "$(le "$(gobench_median SchemaFloorPlanRPCs ns/op)" 1000000)" != met ]; then
			echo "The goals of 1.0 ms and 6,000 allocations are below what the framework alone spends on this schema."
		fi
		echo
		echo "## Apply and refresh: sandbox_template vs terraform_data and the floor"
		echo
		echo "Each rep applies N resources in a fresh directory, refreshes (\`apply -refresh-only\`), plans (must be empty) and destroys."
		echo "Ratio = sandbox_template / terraform_data; floor ratio = sandbox_template / floor_thing; schema ratio ="
		echo "sandbox_template / floor_template (same schema, no logic)."
		echo
		echo "| N | operation | sandbox_template | terraform_data | floor_thing | floor_template | ratio | floor ratio | schema ratio | sandbox_template runs |"
		echo "|---|---|---|---|---|---|---|---|---|---|"
		for n in "${sizes[@]}"; do
			row "$n" apply t_apply
			row "$n" "refresh" t_refresh
			row "$n" "no-op plan" t_plan
			row "$n" destroy t_destroy
		done
		echo
		echo "## API requests per operation (counted by the emulator)"
		echo
		echo "| N | operation | requests | per template | per template, by route |"
		echo "|---|---|---|---|---|"
		for n in "${sizes[@]}"; do
			for op in apply refresh plan destroy; do
				file="${reqs["$op $n"]}"
				echo "| $n | $op | $(per_template "$file" "$n") | $(routes "$file" "$n") |"
			done
		done
		echo
		echo "## Build ready → create finished"
		echo
		echo "Single-template applies against an emulator whose builds take $build_duration ($runs runs). *Direct*: the CLI's exit minus the"
		echo "emulator's \`ready_at\` (build start + duration, from \`GET /_emulator/stats\`); it includes saving the state and stopping"
		echo "the provider, so it is an upper bound. *Polling*: the status poll that first saw it ready (\`observed_at\`) minus \`ready_at\`."
		echo "*Estimate*: apply wall time − $build_duration − the median zero-build apply."
		echo
		echo "| | median | runs |"
		echo "|---|---|---|"
		echo "| direct: ready → CLI done | $(fmt2 "$(median "${lat_direct[@]}")") s | $(list "${lat_direct[@]}") |"
		echo "| of which polling delay | $(fmt2 "$(median "${lat_poll[@]}")") s | $(list "${lat_poll[@]}") |"
		local est=()
		for a in "${lat_slow[@]}"; do est+=("$(sub "$(sub "$a" "${build_duration%s}")" "$(median "${lat_fast[@]}")")"); done
		echo "| estimate | $(fmt2 "$(median "${est[@]}")") s | $(list "${est[@]}") |"
		echo "| apply, $build_duration build | $(fmt2 "$(median "${lat_slow[@]}")") s | $(list "${lat_slow[@]}") |"
		echo "| apply, zero-time build | $(fmt2 "$(median "${lat_fast[@]}")") s | $(list "${lat_fast[@]}") |"
		echo
		builds_section
		echo
		echo "## Provider start-up"
		echo
		echo "| | median |"
		echo "|---|---|"
		echo "| \`terraform providers schema -json\` with the provider | $(fmt2 "$(median "${schema_with[@]}")") s |"
		echo "| the same with only terraform's built-in provider | $(fmt2 "$(median "${schema_without[@]}")") s |"
		echo "| difference: starting the provider and its schema | $(fmt2 "$(sub "$(median "${schema_with[@]}")" "$(median "${schema_without[@]}")")") s |"
		echo
		echo "In process (\`go test -run '^\$' -bench . ./internal/provider/\`, $runs runs; schema cold = a new provider server, warm = the same"
		echo "again; TemplatePlanRPCs = ValidateResourceConfig + PlanResourceChange of one new template, as for every instance of a plan;"
		echo "SchemaFloorPlanRPCs = the same for sandbox_template's schema without logic, provider.NewSchemaFloor):"
		echo
		echo '```'
		echo "$gobench"
		echo '```'
		echo
		echo "## Peak RSS during the apply of ${sizes[-1]} templates"
		echo
		echo "VmHWM polled every 50 ms, in an extra untimed apply; Terraform starts the provider once per phase, the peak is the largest."
		echo
		echo "| process | peak RSS |"
		echo "|---|---|"
		echo "| terraform-provider-sandbox | $(mib "$peak_rss_provider") |"
		echo "| terraform | $(mib "$peak_rss_terraform") |"
		echo
		echo "CPU time of that apply (same polls; on $(nproc) cores it is CPU-bound as the sum nears $(nproc) × its wall time):"
		echo "provider processes ${cpu_provider} s, terraform itself ${cpu_terraform} s, in $(fmt2 "$rss_wall") s wall."
	} >"$out.tmp"
	mv "$out.tmp" "$out"
}

# builds_goals / builds_section: the rows and the section of the report that build_runs measured.
builds_goals() {
	local a dur
	for dur in 2s 60s; do
		a="$(median ${rd_delay[$dur]})"
		echo "| build ready → provider observes it done ≤ 1 s (median), ${dur%s} s builds, $par_templates templates in parallel | $(fmt2 "$a") s | $(le "$a" 1) |"
	done
	a="$(median ${polls_per_min[60s]})"
	echo "| status requests per build-minute ≤ 60 (60 s builds; E2B's SDK makes 300) | $(fmt2 "$a") | $(le "$a" 60) |"
	echo "| apply of $limit_templates templates, build limit $limit ≤ 1.2 × ceil($limit_templates/$limit) × build time | ${limit_ratio}× ($(fmt2 "$limit_wall") s vs $limit_ideal s) | $(le "$limit_ratio" 1.2) |"
}

# poll_schedule N: the provider's first N status polls, in seconds after the build starts (250 ms, ×1.5, up to 1.1 s).
# poll_lag SECONDS: how long after SECONDS the next poll of that schedule comes.
poll_schedule() { awk -v n="$1" 'BEGIN { d = 0.25; t = 0; for (i = 1; i <= n; i++) { t += d; printf "%s%.2f", (i > 1 ? ", " : ""), t; d = d * 1.5; if (d > 1.1) d = 1.1 } }'; }
poll_lag() { awk -v s="$1" 'BEGIN { d = 0.25; t = 0; while (t < s) { t += d; d = d * 1.5; if (d > 1.1) d = 1.1 } printf "%.2f", t - s }'; }

builds_section() {
	local dur n
	echo "## Builds that take time: ready → done, status polls, the build limit"
	echo
	echo "An emulator of its own, its build duration and team build limit set through \`POST /_emulator/build-duration\` and"
	echo "\`/_emulator/build-concurrency\`. Each apply creates $par_templates templates in parallel (\`-parallelism=$parallelism\`), so the 60 s case"
	echo "costs one minute, not $par_templates. *Ready → observed*: per build, \`observed_at\` (the status poll that first saw it"
	echo "ready) − \`ready_at\` (start + duration), from \`GET /_emulator/stats\`; that is when the provider knows the build is"
	echo "done (the create then returns). *Last ready → CLI done*: the CLI's exit − the apply's last \`ready_at\` (includes saving"
	echo "state and stopping the provider). *Status polls per build-minute*: \`GET .../builds/{buildID}/status\` counted during the"
	echo "apply ÷ the builds' summed start → ready minutes. The provider polls at 250 ms, ×1.5 each time, up to 1.1 s."
	echo
	echo "| build | applies × templates | ready → observed, median | max | last ready → CLI done | apply wall | status polls per build-minute |"
	echo "|---|---|---|---|---|---|---|"
	for dur in 2s 60s; do
		n="$(wc -w <<<"${rd_wall[$dur]}")"
		echo "| ${dur%s} s | $n × $par_templates | $(fmt2 "$(median ${rd_delay[$dur]})") s | $(fmt2 "$(printf '%s\n' ${rd_delay[$dur]} | sort -g | tail -n1)") s | $(list ${rd_last[$dur]}) s | $(list ${rd_wall[$dur]}) s | $(list ${polls_per_min[$dur]}) |"
	done
	echo
	echo "Ready → observed, every build: 2 s: $(list ${rd_delay[2s]}); 60 s: $(list ${rd_delay[60s]})."
	echo "The polls come $(poll_schedule 5) … s after the start, so where a duration falls in that schedule decides the"
	echo "delay: the schedule alone predicts $(poll_lag 2) s for 2 s builds and $(poll_lag 60) s for 60 s ones (the rest is the requests' own time)."
	echo
	echo "### $limit_templates templates, team build limit $limit"
	echo
	echo "One apply of $limit_templates templates (\`-parallelism=$parallelism\`) while the emulator answers \`POST /v3/templates\` with 429 beyond $limit"
	echo "builds in flight; the provider waits the 429 out, retrying about once a second. Ideal: ceil($limit_templates/$limit) = $(( (limit_templates + limit - 1) / limit )) waves × $limit_build = $limit_ideal s."
	echo "Builds take $limit_build: long enough that the ideal (${limit_ideal} s) dwarfs Terraform's own cost of an apply of $limit_templates"
	echo "(about a second with zero-time builds, see above), short enough that the run costs about a minute. The per-wave costs"
	echo "the goal is about, noticing a build is done (polls up to 1.1 s apart) and getting the freed slot (429 retries about 1 s"
	echo "apart), do not shrink with the build time, so $limit_build builds weigh them $(div 60 "${limit_build%s}")× more than builds of a minute (E2B's real"
	echo "builds take minutes): a strict test. With 2 s builds the 429 retries alone (up to about 1 s lost per wave) could make"
	echo "1.5×, whatever the rest did; with 60 s builds the run would cost over 5 minutes and the same costs would vanish in the ideal."
	echo
	echo "| | |"
	echo "|---|---|"
	echo "| apply wall time | $(fmt2 "$limit_wall") s |"
	echo "| ideal, ratio | $limit_ideal s, ${limit_ratio}× |"
	echo "| builds ready | $limit_builds of $limit_templates |"
	echo "| \`POST /v3/templates\` sent (the excess over $limit_templates answered 429) | $limit_creates |"
	echo "| first build start → last build observed | $limit_span s |"
	echo "| per wave: previous wave's last ready → this wave's last start | $limit_gaps s |"
}

# row N LABEL ARRAY: one table row from the times array named ARRAY.
row() {
	local n="$1" label="$2"
	local -n times="$3"
	local s d f t
	s="$(median ${times["sandbox $n"]})"
	d="$(median ${times["data $n"]})"
	f="$(median ${times["floor $n"]})"
	t="$(median ${times["schema $n"]})"
	echo "| $n | $label | $(fmt2 "$s") | $(fmt2 "$d") | $(fmt2 "$f") | $(fmt2 "$t") | $(div "$s" "$d")× | $(div "$s" "$f")× | $(div "$s" "$t")× | $(list ${times["sandbox $n"]}) |"
}

list() { printf '%s\n' "$@" | awk '{ printf "%s%.2f", (NR > 1 ? ", " : ""), $1 }'; }
mib() { awk -v k="$1" 'BEGIN { if (k == 0) print "not seen"; else printf "%.1f MiB", k / 1024 }'; }

# ---------------------------------------------------------------------------------------------
# main

main() {
	need go "install Go 1.26"
	need jq "apt-get install jq"
	need curl "apt-get install curl"
	need pgrep "apt-get install procps"
	[ -x "$terraform" ] || die "$terraform is missing: run 'make tools'"
	[ -x "$provider_bin" ] || die "$provider_bin is missing: run 'make build' (make bench does both)"

	mkdir -p "$root/.demo"
	work="$(mktemp -d "$root/.demo/bench.XXXXXX")"
	trap cleanup EXIT
	go build -o "$work/sandbox-emulator" "$root/cmd/sandbox-emulator"
	go build -o "$work/floor/terraform-provider-floor" "$root/internal/benchfloor"

	start_emulator fast 0s
	start_emulator slow "$build_duration"
	start_emulator builds 0s
	cat >"$work/dev.tfrc" <<-TFRC
		provider_installation {
		  dev_overrides {
		    "sandboxtf/sandbox" = "$root/bin"
		    "sandboxtf/floor"   = "$work/floor"
		  }
		  direct {}
		}
	TFRC
	export TF_CLI_CONFIG_FILE="$work/dev.tfrc" CHECKPOINT_DISABLE=1 TF_IN_AUTOMATION=1
	export E2B_API_KEY="$api_key" E2B_API_URL="$url_fast"
	local started n rep
	started="$(now)"
	load_start="$(cut -d' ' -f1-3 /proc/loadavg)"
	if [ "${BENCH_ONLY:-}" = builds ]; then
		build_runs
		echo "load average at start $load_start, at end $(cut -d' ' -f1-3 /proc/loadavg), $(machine)"
		echo
		echo "| goal | measured | |"
		echo "|---|---|---|"
		builds_goals
		echo
		builds_section
		log "done in $(fmt2 "$(sub "$(now)" "$started")") s (BENCH_ONLY=builds: BENCHMARKS.md untouched)"
		return
	fi

	for n in "${sizes[@]}"; do
		for rep in $(seq 1 "$reps"); do
			log "N=$n rep $rep/$reps: apply, refresh, plan, destroy (sandbox_template, terraform_data, floor_thing, floor_template)"
			scale_rep "$n" "$rep"
		done
	done
	log "peak RSS during an apply of ${sizes[-1]}"
	peak_rss "${sizes[-1]}"
	log "build ready → create finished ($runs runs, $build_duration builds)"
	latency_runs
	build_runs
	log "providers schema ($runs runs) and the Go benchmarks"
	schema_runs
	gobench="$(go_bench)"

	report
	log "done in $(fmt2 "$(sub "$(now)" "$started")") s: $out"
}

main "$@"
