#!/usr/bin/env bash
# Docker Compose v2 for the compose stack (deploy/compose) and its test. Debian's docker.io 20.10
# has no compose plugin and nothing can come from GitHub releases here, so compose is built from
# its source on the Go module proxy (github.com/docker/compose/v2) and installed as the Docker
# CLI plugin ~/.docker/cli-plugins/docker-compose, so that `docker compose` works. Cached in
# ~/.cache/verdict-local (VERDICT_LOCAL_CACHE): skipped when that version is there (a cold
# build takes about 10 minutes on 2 busy cores). Needs Go 1.24+.
#   bash scripts/install-compose.sh
set -euo pipefail
COMPOSE_VERSION=${COMPOSE_VERSION:-v2.40.3}
cache=${VERDICT_LOCAL_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/verdict-local}
bin="$cache/docker-compose-$COMPOSE_VERSION/docker-compose"
plugins=${DOCKER_CONFIG:-$HOME/.docker}/cli-plugins
if ! { [ -x "$bin" ] && "$bin" version >/dev/null 2>&1; }; then
  command -v go >/dev/null 2>&1 || { echo "install-compose.sh: Go is required to build Docker Compose (https://go.dev/doc/install)" >&2; exit 1; }
  echo "==> building Docker Compose $COMPOSE_VERSION from the Go module proxy" >&2
  # `go install module/cmd@version` refuses compose: its go.mod has exclude directives. So the
  # module is downloaded at the pinned version and built as the main module (its go.mod and
  # go.sum pin every dependency).
  dir=$(GOFLAGS=-mod=mod go mod download -json "github.com/docker/compose/v2@$COMPOSE_VERSION" |
    sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')
  [ -n "$dir" ] && [ -d "$dir" ] || { echo "install-compose.sh: could not download compose $COMPOSE_VERSION" >&2; exit 1; }
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
  cp -r "$dir/." "$work/"
  chmod -R u+w "$work"
  mkdir -p "$(dirname "$bin")"
  (cd "$work" && CGO_ENABLED=0 GOFLAGS=-buildvcs=false go build -trimpath \
    -ldflags "-s -w -X github.com/docker/compose/v2/internal.Version=$COMPOSE_VERSION" -o "$bin.tmp.$$" ./cmd)
  mv "$bin.tmp.$$" "$bin"
fi
mkdir -p "$plugins"
ln -sf "$bin" "$plugins/docker-compose"
echo "==> $(docker compose version)" >&2
