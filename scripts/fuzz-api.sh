#!/usr/bin/env bash
# Fuzzes the REST API with schemathesis (from PyPI) against a real all-in-one instance:
# no 5xx, every status and body documented, schema-valid input accepted, invalid input rejected,
# 405 for undeclared methods. Needs a build (scripts/install.sh) and python3.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/node-env.sh  # the Node.js scripts/install.sh provides
SCHEMATHESIS_VERSION=4.32.5
tools=.tools/schemathesis
if [ ! -x "$tools/bin/schemathesis" ] || ! "$tools/bin/schemathesis" --version 2>/dev/null | grep -q "$SCHEMATHESIS_VERSION"; then
  echo "==> installing schemathesis $SCHEMATHESIS_VERSION"
  python3 -m venv "$tools"
  "$tools/bin/pip" install --quiet --disable-pip-version-check "schemathesis==$SCHEMATHESIS_VERSION"
fi

data=$(mktemp -d)
log="$data/server.log"
operator=$(node --input-type=module -e 'const { generateKey } = await import("./services/identity/dist/domain/apiKey.js"); console.log(generateKey("prod"));')
# Webhooks the fuzzer registers may only target "localhost", which resolves to a loopback
# address and is refused when a message is sent: fuzzing never sends traffic off the machine.
# Anonymous requests count per address against the default per-minute limit: the fuzzer sends
# well over a thousand a minute (the OAuth pages, every check without credentials), all from
# 127.0.0.1, so that default is raised here, or its 429s would stand in for the 401s it checks.
VERDICT_HTTP_PORT=0 VERDICT_HTTP_HOST=127.0.0.1 VERDICT_DATA_DIR="$data" VERDICT_BOOTSTRAP_API_KEY="$operator" VERDICT_LOG_LEVEL=info \
  VERDICT_WEBHOOK_ALLOWED_HOSTS=localhost \
  VERDICT_RATE_LIMIT_PER_MINUTE=1000000 VERDICT_RATE_LIMIT_PER_HOUR=10000000 VERDICT_RATE_LIMIT_PER_DAY=100000000 \
  node services/all-in-one/dist/main.js >"$log" 2>&1 &
pid=$!
trap 'kill $pid 2>/dev/null; wait $pid 2>/dev/null; rm -rf "$data"' EXIT
for _ in $(seq 1 100); do
  port=$(grep -o '"http_port":[0-9]*' "$log" | head -1 | cut -d: -f2 || true)
  [ -n "$port" ] && break
  kill -0 $pid 2>/dev/null || { cat "$log"; exit 1; }
  sleep 0.2
done
[ -n "${port:-}" ] || { echo "Verdict did not start"; cat "$log"; exit 1; }
base="http://127.0.0.1:$port"

# A dedicated organization whose limits do not throttle the fuzzer; its admin key fuzzes.
VERDICT_FUZZ_KEY=$(curl -sf -X POST "$base/v1/organizations" -H "Authorization: Bearer $operator" -H 'Content-Type: application/json' \
  -d '{"name":"fuzz","rate_limits":{"per_minute":10000000,"per_hour":100000000,"per_day":1000000000,"evaluations_create_per_minute":10000000,"evaluations_list_per_minute":10000000,"reports_create_per_hour":10000000,"reads_per_minute":10000000}}' |
  node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>process.stdout.write(JSON.parse(s).api_key.key))')
export VERDICT_FUZZ_KEY

# The OAuth server's endpoints, its HTML pages and SAML's form post (tag "OAuth server and SSO
# pages") are fuzzed too: they answer undeclared methods with 405 and Allow like the API, and
# their protocol errors (invalid_grant for a made-up code, an expired interaction) are 400s the
# document declares; test/fuzz/schemathesis.toml counts 400 as expected for that tag only.
"$tools/bin/schemathesis" --config-file test/fuzz/schemathesis.toml run "$base/v1/openapi.json" --checks all \
  --seed "${VERDICT_FUZZ_SEED:-20261122}" "$@"
