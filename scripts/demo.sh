#!/usr/bin/env bash
# The demo (`make demo`): starts cmd/sandbox-emulator on 127.0.0.1 (E2B, OpenSandbox, Daytona, AWS ECR and
# AgentCore control, Google's token endpoint), exports the settings it prints, applies
# examples/demo (one template on each backend) with the locally built provider (a dev override,
# no registry), prints the outputs, checks that a second plan is empty, and destroys.
#
# Nothing beyond 127.0.0.1 is reached: the AWS SDK gets the emulator's endpoints, credentials and
# region, empty shared config files and no instance metadata; variables that could point a backend
# elsewhere are unset.
#
# The CLI: $TERRAFORM (TERRAFORM=bin/tofu runs it on OpenTofu), else a Terraform >= 1.5 or an
# OpenTofu already on PATH or in bin/, else bin/terraform built now (Terraform 1.5.7, the quickest
# of the three CLIs `make tools` builds). E2B builds take DEMO_BUILD_DURATION (12s), so the apply
# shows Terraform's "Still creating..." line (it prints one every 10 s) before the build completes.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
work="$root/.demo/demo" # .demo/ also holds make bench's working dirs: leave those alone
rm -rf "$work" && mkdir -p "$work"
cp "$root/examples/demo/main.tf" "$work/"

die() { echo "demo: $*" >&2; exit 1; }
[ -x "$root/bin/terraform-provider-sandbox" ] || die "bin/terraform-provider-sandbox is missing: run 'make build'"

# supported CLI: a Terraform from 1.5 on (the oldest the tests run), or any OpenTofu.
supported() {
	"$1" version 2>/dev/null | grep -qE '^(Terraform v(1\.([5-9]|[1-9][0-9])|[2-9])|OpenTofu v)'
}
demo_cli() {
	local cli
	for cli in "$(command -v terraform || true)" "$(command -v tofu || true)" "$root/bin/terraform" "$root/bin/tofu" "$root/bin/terraform-current"; do
		if [ -n "$cli" ] && [ -x "$cli" ] && supported "$cli"; then
			echo "$cli"
			return
		fi
	done
	echo "demo: no Terraform >= 1.5 or OpenTofu on PATH: building one into bin/" >&2
	"$root/scripts/install-clis.sh" terraform >&2
	echo "$root/bin/terraform"
}
terraform="${TERRAFORM:-$(demo_cli)}"
[ -x "$terraform" ] || die "$terraform is missing: run 'make tools'"
echo "CLI: $terraform ($("$terraform" version 2>/dev/null | head -n 1))"

# The emulator prints NAME=value lines and then "# ready"; until then the file may be half written.
go build -o "$work/sandbox-emulator" "$root/cmd/sandbox-emulator"
"$work/sandbox-emulator" -build-duration "${DEMO_BUILD_DURATION:-12s}" >"$work/emulator.env" 2>"$work/emulator.log" &
emulator=$!
trap 'kill "$emulator" 2>/dev/null || true; wait "$emulator" 2>/dev/null || true' EXIT
for _ in $(seq 1 100); do
	grep -q '^# ready' "$work/emulator.env" && break
	kill -0 "$emulator" 2>/dev/null || break
	sleep 0.1
done
grep -q '^# ready' "$work/emulator.env" || die "the emulator did not start: $(cat "$work/emulator.log")"
if awk -F= '/:\/\// && $2 !~ /^http:\/\/127\.0\.0\.1:/ { bad = 1 } END { exit !bad }' "$work/emulator.env"; then
	die "the emulator printed a URL beyond 127.0.0.1: $work/emulator.env"
fi

# Only the emulator's settings: nothing inherited may send a backend elsewhere.
unset E2B_DOMAIN OPEN_SANDBOX_PROTOCOL AWS_PROFILE AWS_DEFAULT_REGION AWS_SESSION_TOKEN AWS_ENDPOINT_URL \
	AWS_CONTAINER_CREDENTIALS_FULL_URI AWS_CONTAINER_CREDENTIALS_RELATIVE_URI AWS_WEB_IDENTITY_TOKEN_FILE AWS_ROLE_ARN
set -a
# shellcheck disable=SC1091 # written by the emulator above
. "$work/emulator.env"
set +a
: >"$work/aws-config" && : >"$work/aws-credentials"
export AWS_CONFIG_FILE="$work/aws-config" AWS_SHARED_CREDENTIALS_FILE="$work/aws-credentials" AWS_EC2_METADATA_DISABLED=true
echo "emulators: E2B $E2B_API_URL, OpenSandbox http://$OPEN_SANDBOX_DOMAIN, Daytona $DAYTONA_API_URL, AWS $AWS_ENDPOINT_URL_ECR ($AWS_REGION)"

cat >"$work/dev.tfrc" <<TFRC
provider_installation {
  dev_overrides {
    "sandboxtf/sandbox" = "$root/bin"
  }
  direct {}
}
TFRC
export TF_CLI_CONFIG_FILE="$work/dev.tfrc" CHECKPOINT_DISABLE=1 TF_IN_AUTOMATION=1

cd "$work"
"$terraform" apply -auto-approve -input=false
echo "--- outputs ---"
"$terraform" output
echo "--- a second plan must be empty ---"
rc=0
"$terraform" plan -detailed-exitcode -input=false -no-color >"$work/plan.log" 2>&1 || rc=$?
[ "$rc" = 0 ] || { cat "$work/plan.log"; die "the second plan is not empty (exit $rc)"; }
echo "no changes"
"$terraform" destroy -auto-approve -input=false
# How many requests each emulator answered, from its log line at exit.
kill "$emulator" && wait "$emulator" || true
tail -n 1 "$work/emulator.log"
