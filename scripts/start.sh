#!/usr/bin/env bash
# The README's run command: installs what is missing, builds, and runs Verdict all-in-one.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install.sh
exec node services/all-in-one/dist/main.js
