#!/usr/bin/env bash
# Lints the proto contracts and regenerates what is made from them: the TypeScript stubs in
# libs/proto/src/gen (buf and ts-proto) and the gateway's REST surface in
# services/gateway/src/gen (scripts/rest-gen.mjs, from the google.api.http rules).
set -euo pipefail
cd "$(dirname "$0")/.."
./node_modules/.bin/buf lint
rm -rf libs/proto/src/gen
./node_modules/.bin/buf generate
# Only generators read the REST annotations: no stub imports these (buf.gen.yaml).
rm -rf libs/proto/src/gen/google/api libs/proto/src/gen/google/protobuf/descriptor.ts libs/proto/src/gen/verdict/api
node scripts/rest-gen.mjs
