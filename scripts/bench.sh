#!/usr/bin/env bash
# The benchmark (`make bench`): the locally built provider (a dev override, as in scripts/demo.sh)
# against the bundled E2B emulator on 127.0.0.1, driven by bin/terraform. It measures, and writes to
# BENCHMARKS.md (overwritten):
#   - apply / refresh wall time of N sandbox_template vs N terraform_data, same run, as a ratio,
#     and of N floor_thing (internal/benchfloor: the smallest framework provider, the floor any
#     plugin provider pays, since terraform_data is built into the CLI);
#   - E2B API requests per template for create, refresh, no-op plan and destroy (emulator counts);
#   - latency from a build turning ready in the emulator to the create finishing;
#   - provider start-up: `terraform providers schema -json` and BenchmarkProviderSchema;
#   - in process, the provider's part of planning one template: BenchmarkTemplatePlanRPCs;
#   - peak RSS of the provider process during the largest apply.
# It reports; it asserts nothing. The emulator builds in zero time unless asked, so what is timed
# is the provider and Terraform, not a backend.
#
# Knobs (environment): BENCH_SIZES ("50 200"), BENCH_REPS (3), BENCH_RUNS (5: latency and schema
# runs), BENCH_BUILD_DURATION (2s), BENCH_OUT (BENCHMARKS.md), BENCH_KEEP=1 keeps the working dir.
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

# write_config DIR KIND PREFIX: N (var.n) resources of KIND "sandbox", "data" or "floor", ids PREFIX-<index>.
write_config() {
	local dir="$1" kind="$2" prefix="$3"
	mkdir -p "$dir"
	if [ "$kind" = sandbox ]; then
		cat >"$dir/main.tf" <<-HCL
			terraform {
			  required_providers {
			    sandbox = { source = "sandboxtf/sandbox" }
			  }
			}
			provider "sandbox" {}
			variable "n" { type = number }
			resource "sandbox_template" "t" {
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
	case $((rep % 3)) in
	1) order="sandbox data floor" ;;
	2) order="data floor sandbox" ;;
	0) order="floor sandbox data" ;;
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

# go_bench: BenchmarkProviderSchema's and BenchmarkTemplatePlanRPCs's lines, as `go test -bench` prints them.
go_bench() {
	(cd "$root" && go test -count=1 -run '^$' -bench '^Benchmark(ProviderSchema|TemplatePlanRPCs)$' -benchmem ./internal/provider/) \
		>"$work/gobench.log" 2>&1 || { cat "$work/gobench.log" >&2; die "the Go benchmarks failed"; }
	grep -E '^Benchmark(ProviderSchema|TemplatePlanRPCs)' "$work/gobench.log"
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
		r="$(jq -r --argjson n "$n" '([.requests[]] | add // 0) / $n' "${reqs["refresh $n"]}")"
		echo "| refresh costs ≤ 1 API request per template | $r | $(le "$r" 1) |"
		a="$(median "${lat_direct[@]}")"
		echo "| build ready → create finished ≤ 1 s (median) | $(fmt2 "$a") s | $(le "$a" 1) |"
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
		echo "## Apply and refresh: sandbox_template vs terraform_data and the floor"
		echo
		echo "Each rep applies N resources in a fresh directory, refreshes (\`apply -refresh-only\`), plans (must be empty) and destroys."
		echo "Ratio = sandbox_template / terraform_data; floor ratio = sandbox_template / floor_thing."
		echo
		echo "| N | operation | sandbox_template | terraform_data | floor_thing | ratio | floor ratio | sandbox_template runs |"
		echo "|---|---|---|---|---|---|---|---|"
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
		echo "## Provider start-up"
		echo
		echo "| | median |"
		echo "|---|---|"
		echo "| \`terraform providers schema -json\` with the provider | $(fmt2 "$(median "${schema_with[@]}")") s |"
		echo "| the same with only terraform's built-in provider | $(fmt2 "$(median "${schema_without[@]}")") s |"
		echo "| difference: starting the provider and its schema | $(fmt2 "$(sub "$(median "${schema_with[@]}")" "$(median "${schema_without[@]}")")") s |"
		echo
		echo "In process (\`go test -run '^\$' -bench . ./internal/provider/\`; schema cold = a new provider server, warm = the same"
		echo "again; TemplatePlanRPCs = ValidateResourceConfig + PlanResourceChange of one new template, as for every instance of a plan):"
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

# row N LABEL ARRAY: one table row from the times array named ARRAY.
row() {
	local n="$1" label="$2"
	local -n times="$3"
	local s d f
	s="$(median ${times["sandbox $n"]})"
	d="$(median ${times["data $n"]})"
	f="$(median ${times["floor $n"]})"
	echo "| $n | $label | $(fmt2 "$s") | $(fmt2 "$d") | $(fmt2 "$f") | $(div "$s" "$d")× | $(div "$s" "$f")× | $(list ${times["sandbox $n"]}) |"
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

	for n in "${sizes[@]}"; do
		for rep in $(seq 1 "$reps"); do
			log "N=$n rep $rep/$reps: apply, refresh, plan, destroy (sandbox_template, terraform_data, floor_thing)"
			scale_rep "$n" "$rep"
		done
	done
	log "peak RSS during an apply of ${sizes[-1]}"
	peak_rss "${sizes[-1]}"
	log "build ready → create finished ($runs runs, $build_duration builds)"
	latency_runs
	log "providers schema ($runs runs) and the Go benchmarks"
	schema_runs
	gobench="$(go_bench)"

	report
	log "done in $(fmt2 "$(sub "$(now)" "$started")") s: $out"
}

main "$@"
