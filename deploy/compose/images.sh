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
# The build stage first, tagged, so its layers stay cached for the next build; then the image.
# Each build leaves the images the tags moved from untagged (about 3.7 GB with the build stage):
# those of Verdict's own are removed, and nothing else of the engine is touched.
docker build -q --network host "${args[@]}" --target build -t verdict-build:cache "$root" >/dev/null
docker build -q --network host "${args[@]}" --build-arg REVISION="$(git -C "$root" rev-parse HEAD 2>/dev/null || echo unknown)" \
  -t "$image" "$root" >/dev/null
docker image prune -f --filter label=io.verdict.stage=build >/dev/null
docker image prune -f --filter label=org.opencontainers.image.title=Verdict >/dev/null
bash "$root/deploy/infra/images.sh"
echo "VERDICT_IMAGE=$image"
