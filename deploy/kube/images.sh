#!/usr/bin/env bash
# Builds the images the chart's tests use, with the Docker engine of deploy/image/dockerd.sh and
# no registry: verdict:test (scripts/test-container.sh's image, unless it exists),
# verdict-dev/kafka:4.3.1 and verdict-dev/ferretdb:1.24.2 (devServices, from the jars and the
# binary deploy/local builds), all on the local Debian base deploy/image/base.sh makes.
# Prints DOCKER_HOST=... Usage: deploy/kube/images.sh
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
eval "$(bash "$root/deploy/image/dockerd.sh" start | grep '^DOCKER_HOST=' | sed 's/^/export /')"
cache=${VERDICT_LOCAL_CACHE:-$HOME/.cache/verdict-local}
base=verdict-local/debian:bookworm-slim
docker image inspect "$base" >/dev/null 2>&1 || bash "$root/deploy/image/base.sh" >&2
if ! docker image inspect verdict:test >/dev/null 2>&1; then
  echo "==> images: building verdict:test (scripts/test-container.sh builds the same image)" >&2
  docker build --network host -t verdict:test \
    --build-arg BUILD_BASE=verdict-local/node:24-bookworm --build-arg RUNTIME_BASE=verdict-local/node:24-bookworm-slim "$root" >&2
fi
build_dev() { # image dockerfile context-setup
  local image=$1 file=$2 ctx
  docker image inspect "$image" >/dev/null 2>&1 && return 0
  ctx=$(mktemp -d)
  "$3" "$ctx"
  echo "==> images: building $image" >&2
  docker build --network host -t "$image" --build-arg BASE=$base -f "$here/images/$file" "$ctx" >&2
  rm -rf "$ctx"
}
kafka_ctx() { bash "$root/deploy/local/kafka.sh" install >&2; cp -r "$cache/kafka-4.3.1/libs" "$1/libs"; }
ferret_ctx() { bash "$root/deploy/local/mongo.sh" install >&2; cp "$cache/ferretdb-v1.24.2/ferretdb" "$1/ferretdb"; }
build_dev verdict-dev/kafka:4.3.1 kafka.Dockerfile kafka_ctx
build_dev verdict-dev/ferretdb:1.24.2 ferretdb.Dockerfile ferret_ctx
echo "DOCKER_HOST=$DOCKER_HOST"
