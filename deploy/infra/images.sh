#!/usr/bin/env bash
# Builds the Kafka and FerretDB images the compose stack (deploy/compose/compose.yaml) and the
# integration tests (test/containers/infra.ts, through testcontainers) run, without pulling from
# an image registry: Kafka's jars come from Maven Central and FerretDB is built from the Go
# module proxy, by the same deploy/local scripts the no-Docker laptop stack uses (cached in
# ~/.cache/verdict-local). Each image is tagged by a hash of what goes into it
# (verdict-infra/kafka:4.3.1-<hash>), so a run reuses the image an earlier run built, and also
# under its plain version tag (verdict-infra/kafka:4.3.1) for the compose file.
#
#   bash deploy/infra/images.sh
#
# Environment: DOCKER_HOST (the engine), VERDICT_INFRA_BASE (the Debian base, default
# debian:bookworm-slim; here the local verdict-local/debian:bookworm-slim deploy/image/base.sh
# builds). Prints VERDICT_KAFKA_IMAGE=... and VERDICT_FERRETDB_IMAGE=... (the hashed tags).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
# The versions deploy/local pins.
KAFKA_VERSION=$(sed -n 's/^KAFKA_VERSION=\${KAFKA_VERSION:-\(.*\)}$/\1/p' "$root/deploy/local/kafka.sh")
FERRETDB_VERSION=$(sed -n 's/^FERRETDB_VERSION=\${FERRETDB_VERSION:-\(.*\)}$/\1/p' "$root/deploy/local/mongo.sh")
cache=${VERDICT_LOCAL_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/verdict-local}
base=${VERDICT_INFRA_BASE:-debian:bookworm-slim}
base_id=$(docker image inspect --format '{{.Id}}' "$base" 2>/dev/null || echo "$base")

# build NAME VERSION DIR CONTEXT-FILLER: the hashed tag when it exists, else a build.
build() {
  local name=$1 version=$2 dir=$3 fill=$4 hash tag ctx
  hash=$( (cat "$dir"/*; echo "$version $base_id") | sha256sum | cut -c1-12)
  tag="verdict-infra/$name:${version#v}-$hash"
  if docker image inspect "$tag" >/dev/null 2>&1; then
    echo "==> $tag cached" >&2
  else
    ctx=$(mktemp -d)
    cp "$dir"/* "$ctx/"
    "$fill" "$ctx"
    echo "==> building $tag on $base" >&2
    docker build -q --network host --build-arg BASE="$base" --build-arg "$(echo "$name" | tr a-z A-Z)_VERSION=$version" \
      -t "$tag" "$ctx" >/dev/null || { rm -rf "$ctx"; exit 1; }
    rm -rf "$ctx"
  fi
  docker tag "$tag" "verdict-infra/$name:${version#v}"
  echo "$tag"
}
kafka_ctx() { bash "$root/deploy/local/kafka.sh" install >&2; cp -r "$cache/kafka-$KAFKA_VERSION/libs" "$1/libs"; rm -f "$1/libs/.complete"; }
ferretdb_ctx() { bash "$root/deploy/local/mongo.sh" install >&2; cp "$cache/ferretdb-$FERRETDB_VERSION/ferretdb" "$1/ferretdb"; }

kafka=$(build kafka "$KAFKA_VERSION" "$here/kafka" kafka_ctx)
ferretdb=$(build ferretdb "$FERRETDB_VERSION" "$here/ferretdb" ferretdb_ctx)
echo "VERDICT_KAFKA_IMAGE=$kafka"
echo "VERDICT_FERRETDB_IMAGE=$ferretdb"
