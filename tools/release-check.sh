#!/usr/bin/env bash
# Checks the release config the way the next tag would use it: goreleaser check, every GOOS/GOARCH pair
# one this Go builds (tools/releasematrix, nothing compiled), then
# a snapshot release (archives, checksums, manifest; never signed, never published) of linux/amd64,
# and the files the Terraform and OpenTofu registries read from a release:
#   terraform-provider-sandbox_<v>_linux_amd64.zip holding terraform-provider-sandbox_v<v>
#   terraform-provider-sandbox_<v>_SHA256SUMS listing the zip and terraform-provider-sandbox_<v>_manifest.json
# The whole matrix is not built here: each target compiles every dependency again.
set -euo pipefail
cd "$(dirname "$0")/.."
goreleaser="${GORELEASER:-bin/goreleaser}"
name=terraform-provider-sandbox

"$goreleaser" check
go -C tools run ./releasematrix ../.goreleaser.yml # every pair asked for is one Go builds

# The same config with one target instead of the goos x goarch matrix.
one_target=bin/goreleaser-one-target.yml
sed -e 's/^    goos: .*/    targets: [linux_amd64_v1]/' -e '/^    goarch: /d' .goreleaser.yml >"$one_target"
grep -q 'targets: \[linux_amd64_v1\]' "$one_target" || { echo "release-check: could not narrow .goreleaser.yml's builds to one target" >&2; exit 1; }
"$goreleaser" release --snapshot --skip=sign,publish --clean --config "$one_target"

fail() { echo "release-check: $*" >&2; exit 1; }
sums=$(echo dist/${name}_*_SHA256SUMS)
[ -f "$sums" ] || fail "no dist/${name}_<version>_SHA256SUMS"
version=${sums#dist/${name}_}
version=${version%_SHA256SUMS}
zip=${name}_${version}_linux_amd64.zip
binary=${name}_v${version}
grep -q "  $zip\$" "$sums" || fail "$sums does not list $zip"
grep -q "  ${name}_${version}_manifest.json\$" "$sums" || fail "$sums does not list ${name}_${version}_manifest.json"
python3 -m zipfile -l "dist/$zip" | grep -q "^$binary " || fail "dist/$zip does not hold $binary"
# -X main.version: the version is in the binary (it is nowhere else in it).
grep -qaF -- "$version" dist/${name}_linux_amd64*/"$binary" || fail "$binary does not carry its version $version"
echo "release-check: $zip, $(basename "$sums") and the manifest as the registries expect (version $version)"
