#!/usr/bin/env bash
# Installs the three CLIs the acceptance tests run against into ./bin and reuses them when present:
# all three (`make tools`), or those named as arguments (terraform, tofu, terraform-current; the
# demo builds only `terraform`, the quickest: scripts/demo.sh).
# All come from the Go module proxy only: Terraform 1.5.7 (last MPL release) via `go install`, OpenTofu
# built from its module (its go.mod has a replace directive, so `go install` refuses it), and the current
# Terraform built from its module as bin/terraform-current (see build_terraform_current below).
# Terraform after 1.5.7 is BUSL-1.1: it is a test tool here, never shipped.
set -euo pipefail

TERRAFORM_VERSION="${TERRAFORM_VERSION:-1.5.7}"
TOFU_VERSION="${TOFU_VERSION:-1.12.6}"
# The newest Terraform the module proxy serves; the next release is this one line.
TERRAFORM_CURRENT_VERSION="${TERRAFORM_CURRENT_VERSION:-1.16.4}"

root="$(cd "$(dirname "$0")/.." && pwd)"
bin="$root/bin"
mkdir -p "$bin"

# `version` may print CLI-config warnings around the version line, so look for the line itself.
has_version() { [ -x "$1" ] && "$1" version 2>/dev/null | grep -qE "^(Terraform|OpenTofu) v$2\$"; }

# Copies a module's source from the module cache into a writable temp dir and prints that dir.
# The download runs outside any module, so it cannot touch this project's go.mod/go.sum.
module_source() {
  local src work
  work="$(mktemp -d)"
  src="$(cd "$work" && go mod download -json "$1" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')"
  [ -d "$src" ] || { echo "go mod download did not report a Dir for $1" >&2; return 1; }
  cp -R "$src/." "$work/"
  chmod -R u+w "$work"
  echo "$work"
}

# Terraform > 1.5 cannot be `go install`ed: its go.mod replaces nested modules (remote-state backends,
# internal/legacy) that the module zip omits. The tests use only the local backend, so drop the nine
# missing backends from the backend registry and their require/replace lines, then build with -mod=mod.
build_terraform_current() {
  local work="$1" missing="azure consul cos gcs kubernetes oci oss pg s3" b alias init="internal/backend/init/init.go"
  for b in $missing; do
    alias="$(sed -n -E "s/^[[:space:]]*([[:alnum:]]+) \"[^\"]*\/remote-state\/$b\"$/\1/p" "$work/$init")"
    [ -n "$alias" ] || { echo "no import of the $b backend in $init: update build_terraform_current" >&2; return 1; }
    sed -i -E "/\/remote-state\/$b\"$/d; /[[:space:]]$alias\.New\(/d" "$work/$init"
    sed -i -E "/internal\/backend\/remote-state\/$b[[:space:]]/d" "$work/go.mod"
  done
  sed -i -E '/internal\/legacy[[:space:]]/d' "$work/go.mod"
  (cd "$work" && CGO_ENABLED=0 go build -mod=mod -trimpath \
    -ldflags "-s -w -X github.com/hashicorp/terraform/version.dev=no" -o "$bin/terraform-current" .)
}

# The builds, each into bin/<the CLI's name>.
build_terraform() {
	GOBIN="$bin" CGO_ENABLED=0 go install "github.com/hashicorp/terraform@v$TERRAFORM_VERSION"
}

build_tofu() {
	work="$(module_source "github.com/opentofu/opentofu@v$TOFU_VERSION")"
	(cd "$work" && CGO_ENABLED=0 go build -trimpath \
		-ldflags "-s -w -X github.com/opentofu/opentofu/version.dev=no" -o "$bin/tofu" ./cmd/tofu)
	rm -rf "$work"
}

build_current() {
	work="$(module_source "github.com/hashicorp/terraform@v$TERRAFORM_CURRENT_VERSION")"
	build_terraform_current "$work"
	rm -rf "$work"
}

work=""
trap '[ -z "$work" ] || rm -rf "$work"' EXIT
[ "$#" -gt 0 ] || set -- terraform tofu terraform-current
for cli in "$@"; do
	case "$cli" in
	terraform) version="$TERRAFORM_VERSION" build=build_terraform ;;
	tofu) version="$TOFU_VERSION" build=build_tofu ;;
	terraform-current) version="$TERRAFORM_CURRENT_VERSION" build=build_current ;;
	*) echo "install-clis.sh: unknown CLI $cli (terraform, tofu, terraform-current)" >&2; exit 2 ;;
	esac
	if has_version "$bin/$cli" "$version"; then
		echo "bin/$cli $version already installed"
	else
		echo "building bin/$cli $version (takes a few minutes)"
		"$build"
	fi
	"$bin/$cli" version 2>/dev/null | grep -E '^(Terraform|OpenTofu) v'
done

# tfplugindocs runs the `terraform` first on PATH: bin/docs-cli holds one pointing at the current CLI,
# whose schema output carries write_only (1.5.7's does not).
if [ -x "$bin/terraform-current" ]; then
	mkdir -p "$bin/docs-cli"
	ln -sfn ../terraform-current "$bin/docs-cli/terraform"
fi
