#!/usr/bin/env bash
# Installs the two CLIs the acceptance tests run against into ./bin and reuses them when present.
# Both come from the Go module proxy only: Terraform 1.5.7 (last MPL release) via `go install`, and
# OpenTofu built from its module (its go.mod has a replace directive, so `go install` refuses it).
set -euo pipefail

TERRAFORM_VERSION="${TERRAFORM_VERSION:-1.5.7}"
TOFU_VERSION="${TOFU_VERSION:-1.12.6}"

root="$(cd "$(dirname "$0")/.." && pwd)"
bin="$root/bin"
mkdir -p "$bin"

# `version` may print CLI-config warnings around the version line, so look for the line itself.
has_version() { [ -x "$1" ] && "$1" version 2>/dev/null | grep -qE "^(Terraform|OpenTofu) v$2\$"; }

if has_version "$bin/terraform" "$TERRAFORM_VERSION"; then
  echo "bin/terraform $TERRAFORM_VERSION already installed"
else
  echo "building terraform $TERRAFORM_VERSION (takes a few minutes)"
  GOBIN="$bin" CGO_ENABLED=0 go install "github.com/hashicorp/terraform@v$TERRAFORM_VERSION"
fi

if has_version "$bin/tofu" "$TOFU_VERSION"; then
  echo "bin/tofu $TOFU_VERSION already installed"
else
  echo "building tofu $TOFU_VERSION (takes a few minutes)"
  # Outside any module, so the download cannot touch this project's go.mod/go.sum.
  src_dir="$(cd "$(mktemp -d)" && go mod download -json "github.com/opentofu/opentofu@v$TOFU_VERSION" \
    | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')"
  [ -d "$src_dir" ] || { echo "go mod download did not report a Dir for opentofu" >&2; exit 1; }
  work="$(mktemp -d)"
  trap 'chmod -R u+w "$work" 2>/dev/null; rm -rf "$work"' EXIT
  cp -R "$src_dir/." "$work/"
  chmod -R u+w "$work"
  (cd "$work" && CGO_ENABLED=0 go build -trimpath \
    -ldflags "-s -w -X github.com/opentofu/opentofu/version.dev=no" -o "$bin/tofu" ./cmd/tofu)
fi

"$bin/terraform" version 2>/dev/null | grep -E '^Terraform v'
"$bin/tofu" version 2>/dev/null | grep -E '^OpenTofu v'
