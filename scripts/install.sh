#!/usr/bin/env bash
# Installs everything Verdict needs on a fresh machine with Node 20: pnpm, the workspace's
# dependencies (native addons built from source against the local Node headers) and the build.
# Idempotent: a second run is quick.
set -euo pipefail
cd "$(dirname "$0")/.."

PNPM_VERSION=10.34.8
node_major=$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)
if [ "$node_major" -lt 20 ]; then
  echo "Verdict needs Node.js 20 or newer (found: $(node --version 2>/dev/null || echo none))" >&2
  exit 1
fi

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

echo "==> building"
pnpm run build
