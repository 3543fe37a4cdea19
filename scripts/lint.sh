#!/usr/bin/env bash
# One lint command: proto lint and freshness of the generated stubs, TypeScript (strict, tests
# included), ESLint, and prettier's formatting check (`pnpm format` fixes it).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/node-env.sh  # the Node.js scripts/install.sh provides
echo "--> buf lint"
./node_modules/.bin/buf lint
echo "--> generated stubs are up to date"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
sed "s|out: libs/proto/src/gen|out: $tmp/gen|" buf.gen.yaml > "$tmp/buf.gen.yaml"
./node_modules/.bin/buf generate --template "$tmp/buf.gen.yaml"
rm -rf "$tmp/gen/google/api" "$tmp/gen/google/protobuf/descriptor.ts" "$tmp/gen/verdict/api"
diff -r "$tmp/gen" libs/proto/src/gen >/dev/null || { echo "libs/proto/src/gen is stale: run 'pnpm proto:gen'" >&2; exit 1; }
node scripts/rest-gen.mjs --check
echo "--> tsc"
./node_modules/.bin/tsc -b tsconfig.build.json
./node_modules/.bin/tsc -p tsconfig.test.json
echo "--> dashboard (services/portal) types, against the generated API client"
pnpm --filter @verdict/portal run typecheck
echo "--> SDK types match the gateway's OpenAPI document"
node scripts/sdk-gen.mjs --check
echo "--> eslint"
./node_modules/.bin/eslint --max-warnings 0 .
echo "--> prettier (pnpm format fixes what it reports)"
./node_modules/.bin/prettier --check . > /dev/null || { ./node_modules/.bin/prettier --list-different .; echo "not formatted: run 'pnpm format'" >&2; exit 1; }
