#!/usr/bin/env bash
# A MongoDB-wire-compatible server as a local process, for tests and development: FerretDB v1
# with its SQLite backend, built from source fetched through the Go module proxy (no container
# engine, no root, no prebuilt download).
#
#   deploy/local/mongo.sh install   build FerretDB into the cache (skipped when present)
#   deploy/local/mongo.sh start     install, start, wait until it answers
#   deploy/local/mongo.sh stop      stop the server this script started (by its PID file)
#   deploy/local/mongo.sh status    say whether it runs, and where
#
# Environment: VERDICT_MONGODB_PORT (default 27018), VERDICT_LOCAL_RUN_DIR (PID file, log,
# SQLite files; default deploy/local/.run/mongo), VERDICT_LOCAL_CACHE (binary; default
# ~/.cache/verdict-local, outside the clone so that fresh clones on the same machine reuse it),
# FERRETDB_VERSION (default below). On start it prints the line `VERDICT_MONGODB_URI=...`.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)

FERRETDB_VERSION=${FERRETDB_VERSION:-v1.24.2}
cache=${VERDICT_LOCAL_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/verdict-local}
run=${VERDICT_LOCAL_RUN_DIR:-$here/.run}/mongo
port=${VERDICT_MONGODB_PORT:-27018}
bin="$cache/ferretdb-$FERRETDB_VERSION/ferretdb"
pidfile="$run/ferretdb.pid"
# shellcheck source=process.sh
. "$here/process.sh"
log="$run/ferretdb.log"

install() {
  if [ -x "$bin" ] && "$bin" --version >/dev/null 2>&1; then return 0; fi
  command -v go >/dev/null 2>&1 || { echo "mongo.sh: Go is required to build FerretDB (https://go.dev/doc/install)" >&2; exit 1; }
  echo "==> mongo: building FerretDB $FERRETDB_VERSION from the Go module proxy"
  # `go install module@version` cannot be used: it asks the proxy for the module's version
  # list (a deprecation check), which the proxy refuses for FerretDB. And FerretDB's build
  # embeds build/version/version.txt, which the module zip does not carry. So: download the
  # module at the pinned version, copy it, write that file, build it as the main module (its
  # own go.mod and go.sum pin every dependency).
  local dir work
  dir=$(GOFLAGS=-mod=mod go mod download -json "github.com/FerretDB/FerretDB@$FERRETDB_VERSION" |
    sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')
  [ -n "$dir" ] && [ -d "$dir" ] || { echo "mongo.sh: could not download FerretDB $FERRETDB_VERSION" >&2; exit 1; }
  work=$(mktemp -d)
  cp -r "$dir/." "$work/"
  chmod -R u+w "$work"
  echo "$FERRETDB_VERSION" >"$work/build/version/version.txt"
  mkdir -p "$(dirname "$bin")"
  (cd "$work" && CGO_ENABLED=0 GOFLAGS=-buildvcs=false go build -trimpath -o "$bin.tmp.$$" ./cmd/ferretdb)
  mv "$bin.tmp.$$" "$bin"
  rm -rf "$work"
}


start() {
  install
  mkdir -p "$run/data"
  if running; then
    echo "==> mongo: already running (pid $(cat "$pidfile"))"
    echo "VERDICT_MONGODB_URI=$(cat "$run/uri")"
    return 0
  fi
  if port_open "$port"; then echo "mongo.sh: port $port is taken; set VERDICT_MONGODB_PORT to a free port" >&2; exit 1; fi
  echo "==> mongo: starting FerretDB $FERRETDB_VERSION (SQLite backend) on 127.0.0.1:$port"
  nohup "$bin" --handler=sqlite --sqlite-url="file:$run/data/" --state-dir="$run" \
    --listen-addr="127.0.0.1:$port" --debug-addr=- --telemetry=disable --log-level=warn \
    >"$log" 2>&1 </dev/null &
  echo $! >"$pidfile"
  local uri="mongodb://127.0.0.1:$port/"
  echo "$uri" >"$run/uri"
  for _ in $(seq 1 120); do
    if ! running; then echo "mongo.sh: FerretDB exited; its log:" >&2; tail -50 "$log" >&2; rm -f "$pidfile"; exit 1; fi
    if port_open "$port"; then
      echo "==> mongo: ready"
      echo "VERDICT_MONGODB_URI=$uri"
      return 0
    fi
    sleep 0.5
  done
  echo "mongo.sh: FerretDB did not open port $port in 60 s; its log:" >&2
  tail -50 "$log" >&2
  stop
  exit 1
}

stop() { stop_process mongo 10; }

status() {
  if running; then echo "mongo: running (pid $(cat "$pidfile")), VERDICT_MONGODB_URI=$(cat "$run/uri")"
  else echo "mongo: not running"; return 3; fi
}

case "${1:-}" in
  install) install ;;
  start) start ;;
  stop) stop ;;
  status) status ;;
  *) echo "usage: $0 install|start|stop|status" >&2; exit 2 ;;
esac
