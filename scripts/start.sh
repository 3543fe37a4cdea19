#!/usr/bin/env bash
# The README's run command: installs what is missing, builds, and runs Verdict all-in-one.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install.sh
# The Node.js install.sh provides (Node 24; .tools/node when the machine has an older one).
source scripts/node-env.sh
exec node services/all-in-one/dist/main.js
