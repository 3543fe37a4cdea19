#!/usr/bin/env bash
# Installs everything Verdict needs on a fresh machine: Node.js 24 when the machine's Node is
# older (official binaries from the npm registry, into .tools/node), pnpm, the workspace's
# dependencies (native addons built from source against that Node's headers) and the build.
# Idempotent: a second run is quick. Other scripts `source scripts/node-env.sh` to use that Node.
set -euo pipefail
cd "$(dirname "$0")/.."

PNPM_VERSION=10.34.8
# Node 24 LTS; the npm registry serves its official binaries as node-linux-<arch>@<version>.
NODE_VERSION=24.21.0
NODE_MIN_MAJOR=24

# shellcheck source=scripts/node-env.sh
source scripts/node-env.sh
node_major=$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)
if [ "$node_major" -lt "$NODE_MIN_MAJOR" ]; then
  echo "==> installing Node.js $NODE_VERSION into .tools/node (found: $(node --version 2>/dev/null || echo none))"
  case "$(uname -m)" in
    x86_64) node_arch=x64 ;;
    aarch64 | arm64) node_arch=arm64 ;;
    *) echo "no Node.js $NODE_VERSION package for $(uname -m): install Node.js $NODE_MIN_MAJOR yourself" >&2; exit 1 ;;
  esac
  pkg="node-linux-$node_arch"
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
  if command -v npm >/dev/null 2>&1; then
    (cd "$tmp" && npm pack --silent "$pkg@$NODE_VERSION" >/dev/null)
  else
    curl -fsSL -o "$tmp/$pkg-$NODE_VERSION.tgz" "https://registry.npmjs.org/$pkg/-/$pkg-$NODE_VERSION.tgz"
  fi
  mkdir -p .tools
  rm -rf ".tools/node-v$NODE_VERSION"
  mkdir -p ".tools/node-v$NODE_VERSION"
  tar -xzf "$tmp/$pkg-$NODE_VERSION.tgz" -C ".tools/node-v$NODE_VERSION" --strip-components=1
  # The package ships node itself and its headers; npm and npx come from the machine's npm,
  # which runs on whichever node is first on PATH.
  ln -sfn "node-v$NODE_VERSION" .tools/node
  source scripts/node-env.sh
  node --version >/dev/null
fi
echo "==> Node.js $(node --version) ($(command -v node))"

# Native addons (re2, better-sqlite3) are compiled by node-gyp. Point it at the headers that
# ship with this Node, so it never tries to download them.
node_prefix=$(dirname "$(dirname "$(command -v node)")")
if [ -f "$node_prefix/include/node/node.h" ]; then
  export npm_config_nodedir="$node_prefix"
fi
export npm_config_build_from_source=true
# re2's installer first tries a prebuilt download; skip straight to the source build.
export RE2_DOWNLOAD_SKIP_PATH=1 RE2_DOWNLOAD_SKIP_VER=1

if ! command -v pnpm >/dev/null 2>&1 || [ "$(pnpm --version 2>/dev/null)" != "$PNPM_VERSION" ]; then
  echo "==> installing pnpm $PNPM_VERSION"
  npm install --global --no-audit --no-fund "pnpm@$PNPM_VERSION" >/dev/null
fi

echo "==> installing dependencies"
if [ -f pnpm-lock.yaml ]; then
  pnpm install --frozen-lockfile
else
  pnpm install
fi

bash scripts/build-sqlite-addon.sh

# node_modules built under another Node (its ABI differs) keep addons that no longer load, and
# pnpm can relink such a build from its store on a later install: load the addon and rebuild it
# from source against this Node's headers whenever it does not load (a marker file was not
# enough: a later `pnpm install` relinked re2's Node 20 build under Node 24).
re2_loads() { node -e 'require(require.resolve("re2", { paths: [process.argv[1]] }))' "$PWD/services/evaluation" >/dev/null 2>&1; }
if ! re2_loads; then
  echo "==> rebuilding native addons for Node.js $(node --version)"
  pnpm -r rebuild re2  # better-sqlite3 is N-API: its addon loads under any Node version
  re2_loads || { echo "re2 does not load under Node.js $(node --version) after a rebuild" >&2; exit 1; }
fi

echo "==> building"
pnpm run build
