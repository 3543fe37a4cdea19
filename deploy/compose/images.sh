#!/usr/bin/env bash
# Builds the three images deploy/compose/compose.yaml runs: Verdict from the repository's
# Dockerfile (VERDICT_IMAGE, default verdict:latest) and Kafka and FerretDB from
# deploy/infra/images.sh (jars from Maven Central, FerretDB from the Go module proxy; needs the
# tools deploy/local needs: Java 17+, Maven, Go). Run from anywhere:
#   bash deploy/compose/images.sh
# Where no image registry can be reached (this project's CI), VERDICT_LOCAL_BASES=1 selects the
# local bases deploy/image/base.sh builds, for all three images.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
args=()
if [ "${VERDICT_LOCAL_BASES:-}" = 1 ]; then
  bash "$root/deploy/image/base.sh" >&2
  args=(--build-arg BUILD_BASE=verdict-local/node:24-bookworm --build-arg RUNTIME_BASE=verdict-local/node:24-bookworm-slim)
  export VERDICT_INFRA_BASE=verdict-local/debian:bookworm-slim
fi
image=${VERDICT_IMAGE:-verdict:latest}
echo "==> building $image" >&2
docker build -q --network host "${args[@]}" --build-arg REVISION="$(git -C "$root" rev-parse HEAD 2>/dev/null || echo unknown)" \
  -t "$image" "$root" >/dev/null
bash "$root/deploy/infra/images.sh"
echo "VERDICT_IMAGE=$image"
