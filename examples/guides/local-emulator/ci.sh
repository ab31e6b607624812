#!/usr/bin/env bash
# A CI job: the emulator in the background, its settings exported, then plan and apply as usual.
set -euo pipefail
go run github.com/sandboxtf/terraform-provider-sandbox/cmd/sandbox-emulator@latest >emulator.env &
emulator=$!
trap 'kill "$emulator"' EXIT
until grep -q '^# ready' emulator.env; do sleep 0.1; done # the settings are complete only then

set -a; . ./emulator.env; set +a # E2B_API_URL, E2B_API_KEY, OPEN_SANDBOX_DOMAIN, AWS_ENDPOINT_URL_*, ...
export AWS_CONFIG_FILE=/dev/null AWS_SHARED_CREDENTIALS_FILE=/dev/null AWS_EC2_METADATA_DISABLED=true

terraform init -input=false
terraform apply -auto-approve -input=false
terraform plan -detailed-exitcode -input=false # 0: a second plan has nothing to do
