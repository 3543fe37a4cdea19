#!/usr/bin/env bash
# Builds, on a machine that cannot pull from an image registry, local stand-ins for the two
# public bases the Dockerfile uses: verdict-local/node:24-bookworm-slim (Debian bookworm minbase
# from the configured apt mirror, plus the Node.js 24 that scripts/install.sh provides and npm
# from the npm registry) and verdict-local/node:24-bookworm (the same plus python3, make and g++
# for the native addons). Cached: an image that exists for this Node version is kept.
# Needs root (debootstrap) and DOCKER_HOST pointing at a running engine.
set -euo pipefail
cd "$(dirname "$0")/../.."
source scripts/node-env.sh
node_version=$(node -p process.versions.node)
node_prefix=$(dirname "$(dirname "$(command -v node)")")
[ -f "$node_prefix/include/node/node.h" ] || { echo "no Node.js headers under $node_prefix: run scripts/install.sh" >&2; exit 1; }
NPM_VERSION=${NPM_VERSION:-11.21.2}
# Bumped when this script changes what the images hold, so cached ones are rebuilt.
BASE_REVISION=2
slim=verdict-local/node:24-bookworm-slim
full=verdict-local/node:24-bookworm
mirror=${VERDICT_DEBIAN_MIRROR:-$(sed -n 's/^URIs: *//p' /etc/apt/sources.list.d/debian.sources 2>/dev/null | head -1)}
mirror=${mirror:-http://deb.debian.org/debian}

have() { [ "$(docker image inspect --format '{{index .Config.Labels "verdict.node-version"}}/{{index .Config.Labels "verdict.base-revision"}}' "$1" 2>/dev/null)" = "$node_version/$BASE_REVISION" ]; }

if have "$slim" && have "$full"; then
  echo "==> base images cached ($slim, $full; Node.js $node_version)"
  exit 0
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
if ! docker image inspect verdict-local/debian:bookworm-slim >/dev/null 2>&1; then
  command -v debootstrap >/dev/null 2>&1 || DEBIAN_FRONTEND=noninteractive apt-get install -o DPkg::Lock::Timeout=300 -y --no-install-recommends debootstrap
  echo "==> debootstrap bookworm (minbase) from $mirror"
  debootstrap --variant=minbase bookworm "$work/rootfs" "$mirror" > "$work/debootstrap.log" 2>&1 ||
    { tail -20 "$work/debootstrap.log" >&2; exit 1; }
  rm -rf "$work/rootfs/var/cache/apt/archives/"*.deb "$work/rootfs/var/lib/apt/lists/"*
  tar -C "$work/rootfs" -c . | docker import --change 'CMD ["bash"]' - verdict-local/debian:bookworm-slim >/dev/null
  rm -rf "$work/rootfs"
fi

echo "==> $slim (Node.js $node_version from $node_prefix, npm $NPM_VERSION)"
mkdir -p "$work/ctx/usr/local/bin" "$work/ctx/usr/local/include" "$work/ctx/usr/local/lib/node_modules/npm"
cp "$node_prefix/bin/node" "$work/ctx/usr/local/bin/node"
cp -r "$node_prefix/include/node" "$work/ctx/usr/local/include/node"
(cd "$work" && npm pack --silent "npm@$NPM_VERSION" >/dev/null)
tar -xzf "$work/npm-$NPM_VERSION.tgz" -C "$work/ctx/usr/local/lib/node_modules/npm" --strip-components=1
ln -s ../lib/node_modules/npm/bin/npm-cli.js "$work/ctx/usr/local/bin/npm"
ln -s ../lib/node_modules/npm/bin/npx-cli.js "$work/ctx/usr/local/bin/npx"
cat > "$work/ctx/Dockerfile" <<DOCKERFILE
FROM verdict-local/debian:bookworm-slim
COPY usr /usr
LABEL verdict.node-version=$node_version verdict.base-revision=$BASE_REVISION
CMD ["node"]
DOCKERFILE
docker build -q -t "$slim" "$work/ctx" >/dev/null

echo "==> $full (python3, make, g++ from $mirror)"
mkdir -p "$work/full"
# The build stage fetches pnpm and packages from the npm registry over HTTPS: trust what this
# machine trusts (its CA bundle may hold a proxy's CA that Node's built-in list lacks).
cp "${VERDICT_HOST_CA_FILE:-/etc/ssl/certs/ca-certificates.crt}" "$work/full/host-ca.crt"
cat > "$work/full/Dockerfile" <<DOCKERFILE
FROM $slim
RUN apt-get update && apt-get install -o DPkg::Lock::Timeout=300 -y --no-install-recommends python3 make g++ && rm -rf /var/lib/apt/lists/*
COPY host-ca.crt /usr/local/share/verdict/host-ca.crt
ENV NODE_EXTRA_CA_CERTS=/usr/local/share/verdict/host-ca.crt npm_config_cafile=/usr/local/share/verdict/host-ca.crt
LABEL verdict.node-version=$node_version verdict.base-revision=$BASE_REVISION
DOCKERFILE
docker build -q --network host -t "$full" "$work/full" >/dev/null
echo "==> base images built"
