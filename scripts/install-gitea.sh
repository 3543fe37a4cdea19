#!/usr/bin/env bash
# Gitea, the Git host the connected-repositories suites run against (test/support/gitea.ts):
# built from source fetched through the Go module proxy (no prebuilt download, no container),
# cached outside the clone so that fresh clones on the same machine reuse it. A second run
# does nothing. Prints the binary's path on its last line.
#
# Environment: GITEA_VERSION (default below), VERDICT_GITEA_CACHE (default ~/.cache/verdict-gitea).
# The build keeps the module's templates/ and options/ beside the binary: without the `bindata`
# tag Gitea reads them from its STATIC_ROOT_PATH (the harness points it there). The web UI's
# JavaScript is not built; the API, git over HTTP and webhooks do not need it.
set -euo pipefail
GITEA_VERSION=${GITEA_VERSION:-v1.24.6}
cache=${VERDICT_GITEA_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/verdict-gitea}
root="$cache/gitea-$GITEA_VERSION"
bin="$root/gitea"
if [ -x "$bin" ] && [ -d "$root/templates" ] && [ -d "$root/options" ] && "$bin" --version >/dev/null 2>&1; then
  echo "$bin"
  exit 0
fi
command -v go >/dev/null 2>&1 || { echo "install-gitea.sh: Go is required to build Gitea (https://go.dev/doc/install)" >&2; exit 1; }
echo "==> gitea: building Gitea $GITEA_VERSION from the Go module proxy (about 6 minutes the first time)" >&2
# `go install` cannot build it (Gitea's go.mod has replace directives): download the module at
# the pinned version, copy it somewhere writable and build it as the main module.
dir=$(GOFLAGS=-mod=mod go mod download -json "code.gitea.io/gitea@$GITEA_VERSION" |
  sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')
[ -n "$dir" ] && [ -d "$dir" ] || { echo "install-gitea.sh: could not download Gitea $GITEA_VERSION" >&2; exit 1; }
work="$cache/build-$GITEA_VERSION"
rm -rf "$work"
mkdir -p "$cache"
cp -r "$dir/." "$work/"
chmod -R u+w "$work"
(cd "$work" && GOFLAGS="-mod=mod -buildvcs=false" go build -tags "sqlite sqlite_unlock_notify" \
  -ldflags "-X main.Version=${GITEA_VERSION#v}" -o gitea .) >&2
rm -rf "$root"
mkdir -p "$root"
mv "$work/gitea" "$root/gitea"
cp -r "$work/templates" "$work/options" "$root/"
rm -rf "$work"
"$bin" --version >&2
echo "$bin"
