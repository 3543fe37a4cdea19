#!/usr/bin/env bash
# better-sqlite3 13 ships N-API prebuilds in its npm package and its implicit node-gyp build
# does nothing when one matches the platform. Verdict builds its native addons from source
# against the local Node's headers, so this compiles it (once: skipped when the compiled addon
# is there). Usage: build-sqlite-addon.sh [node_modules dir, default ./node_modules].
set -euo pipefail
modules=${1:-node_modules}
source "$(dirname "$0")/node-env.sh"
node_prefix=$(dirname "$(dirname "$(command -v node)")")
gyp=$(dirname "$(readlink -f "$(command -v pnpm)")")/../dist/node_modules/node-gyp/bin/node-gyp.js
[ -f "$gyp" ] || gyp=$(npm prefix -g)/lib/node_modules/npm/node_modules/node-gyp/bin/node-gyp.js
for pkg in "$modules"/.pnpm/better-sqlite3@*/node_modules/better-sqlite3; do
  [ -d "$pkg" ] || continue
  [ -f "$pkg/build/Release/better_sqlite3.node" ] && continue
  echo "==> building better-sqlite3 from source ($pkg)"
  headers=()
  [ -f "$node_prefix/include/node/node.h" ] && headers=(--nodedir="$node_prefix")
  (cd "$pkg" && node "$gyp" rebuild --release --force_build=1 "${headers[@]}" >build.log 2>&1) ||
    { tail -30 "$pkg/build.log" >&2; exit 1; }
  rm -f "$pkg/build.log"
done
