#!/usr/bin/env bash
# The demo: starts the bundled E2B emulator on 127.0.0.1, applies examples/demo with the locally
# built provider (a dev override, no registry), prints the outputs, and destroys.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
terraform="${TERRAFORM:-$root/bin/terraform}"
work="$root/.demo"
rm -rf "$work" && mkdir -p "$work"
cp "$root/examples/demo/main.tf" "$work/"

go build -o "$work/sandbox-emulator" "$root/cmd/sandbox-emulator"
"$work/sandbox-emulator" -addr 127.0.0.1:0 -api-key demo-api-key >"$work/emulator.out" 2>"$work/emulator.log" &
emulator=$!
trap 'kill "$emulator" 2>/dev/null || true' EXIT
for _ in $(seq 1 100); do grep -q '^E2B_API_URL=' "$work/emulator.out" 2>/dev/null && break; sleep 0.1; done
export E2B_API_URL="$(sed -n 's/^E2B_API_URL=//p' "$work/emulator.out" | head -n1)"
[ -n "$E2B_API_URL" ] || { echo "emulator did not start:"; cat "$work/emulator.log"; exit 1; }
export E2B_API_KEY=demo-api-key
echo "E2B emulator at $E2B_API_URL"

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
"$terraform" plan -detailed-exitcode -input=false >/dev/null && echo "no changes"
"$terraform" destroy -auto-approve -input=false
