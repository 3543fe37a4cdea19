#!/usr/bin/env bash
# Builds the images the chart's tests use, with the Docker engine of deploy/image/dockerd.sh and
# no registry, all on the local Debian base deploy/image/base.sh makes: verdict:test
# (scripts/test-container.sh's image, unless it exists), and the Kafka and FerretDB images of
# devServices from deploy/infra/images.sh, the one script that builds them for the compose stack,
# the integration tests and the chart alike (verdict-infra/kafka:<version>,
# verdict-infra/ferretdb:<version>, the tags charts/verdict/values.yaml names).
# Prints DOCKER_HOST=..., VERDICT_KAFKA_IMAGE=... and VERDICT_FERRETDB_IMAGE=...
# Usage: deploy/kube/images.sh
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
eval "$(bash "$root/deploy/image/dockerd.sh" start | grep '^DOCKER_HOST=' | sed 's/^/export /')"
base=verdict-local/debian:bookworm-slim
docker image inspect "$base" >/dev/null 2>&1 || bash "$root/deploy/image/base.sh" >&2
if ! docker image inspect verdict:test >/dev/null 2>&1; then
  echo "==> images: building verdict:test (scripts/test-container.sh builds the same image)" >&2
  docker build --network host -t verdict:test \
    --build-arg BUILD_BASE=verdict-local/node:24-bookworm --build-arg RUNTIME_BASE=verdict-local/node:24-bookworm-slim "$root" >&2
fi
VERDICT_INFRA_BASE=$base bash "$root/deploy/infra/images.sh"
echo "DOCKER_HOST=$DOCKER_HOST"
