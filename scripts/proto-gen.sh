#!/usr/bin/env bash
# Lints the proto contracts and regenerates the TypeScript stubs in libs/proto/src/gen.
set -euo pipefail
cd "$(dirname "$0")/.."
./node_modules/.bin/buf lint
rm -rf libs/proto/src/gen
./node_modules/.bin/buf generate
