#!/usr/bin/env bash
# The README's test command (and what .ci/run calls): install, lint, unit suites, the
# black-box suites against real running processes, and the schemathesis API fuzzer (one test).
# Ends with one "N passed, N failed" line.
set -uo pipefail
cd "$(dirname "$0")/.."
bash scripts/install.sh || exit 1

echo "==> lint"
pnpm run -s lint || exit 1

results=$(mktemp -d)
trap 'rm -rf "$results"' EXIT
jest() { node --experimental-vm-modules node_modules/jest/bin/jest.js "$@"; }

# Real Kafka and a real MongoDB-compatible server (deploy/local; started here unless already
# running, and then stopped again): the adapters' contract suites (VERDICT_TEST_*), the
# distributed black-box pass and the fault suites. One Kafka and one database serve every suite:
# each stack gets its own database and bus namespace.
echo "==> Kafka and the MongoDB-compatible database (deploy/local)"
started_infra=()
for svc in kafka mongo; do
  bash "deploy/local/$svc.sh" status >/dev/null 2>&1 || started_infra+=("$svc")
  while IFS= read -r line; do export "$line"; done < <(bash "deploy/local/$svc.sh" start | tee /dev/stderr | grep -E '^VERDICT_(KAFKA_BROKERS|MONGODB_URI)=')
done
export VERDICT_TEST_KAFKA_BROKERS=${VERDICT_TEST_KAFKA_BROKERS:-${VERDICT_KAFKA_BROKERS:-}}
export VERDICT_TEST_MONGODB_URI=${VERDICT_TEST_MONGODB_URI:-${VERDICT_MONGODB_URI:-}}
trap 'for svc in "${started_infra[@]}"; do bash "deploy/local/$svc.sh" stop; done; rm -rf "$results"' EXIT
echo "==> unit tests"
jest --selectProjects unit --json --outputFile="$results/unit.json"
unit_rc=$?
echo "==> black-box tests (real HTTP, real gRPC, real processes)"
jest --selectProjects e2e --runInBand --json --outputFile="$results/e2e.json"
e2e_rc=$?

echo "==> black-box tests against the distributed stack (VERDICT_E2E_TARGET=distributed)"
VERDICT_E2E_TARGET=distributed jest --selectProjects e2e --runInBand --json --outputFile="$results/e2e-distributed.json"
e2e_dist_rc=$?
echo "==> fault tests (worker killed, Kafka restarted)"
jest --selectProjects fault --runInBand --json --outputFile="$results/fault.json"
fault_rc=$?

echo "==> API fuzzing (schemathesis, from the OpenAPI document)"
bash scripts/fuzz-api.sh > "$results/fuzz.log" 2>&1
fuzz_rc=$?
# schemathesis frames its summary like pytest ("=== 1 warning in 39s ==="); CI log readers
# take such a line for a pytest run with no test, so print the summary without the frame.
tail -25 "$results/fuzz.log" | sed -E 's/^=+ ?(.*[^= ]) ?=+$/-- \1 --/; /^=+$/d'
echo "{\"numPassedTests\": $([ $fuzz_rc -eq 0 ] && echo 1 || echo 0), \"numFailedTests\": $([ $fuzz_rc -eq 0 ] && echo 0 || echo 1), \"numRuntimeErrorTestSuites\": 0}" > "$results/fuzz.json"

node -e '
  const fs = require("fs");
  let passed = 0, failed = 0;
  for (const f of process.argv.slice(1)) {
    if (!fs.existsSync(f)) { failed++; continue; }
    const r = JSON.parse(fs.readFileSync(f, "utf8"));
    passed += r.numPassedTests; failed += r.numFailedTests + r.numRuntimeErrorTestSuites;
  }
  console.log(`tests: ${passed} passed, ${failed} failed`);
' "$results/unit.json" "$results/e2e.json" "$results/e2e-distributed.json" "$results/fault.json" "$results/fuzz.json"

[ $unit_rc -eq 0 ] && [ $e2e_rc -eq 0 ] && [ $e2e_dist_rc -eq 0 ] && [ $fault_rc -eq 0 ] && [ $fuzz_rc -eq 0 ]
