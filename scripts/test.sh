#!/usr/bin/env bash
# The README's test command (and what .ci/run calls): install, lint, unit suites (the Store and
# Bus contracts also against real FerretDB and Kafka 4.x started from deploy/local/), the
# black-box suites against real running processes (a few of them again on MongoDB + Kafka), the
# adversarial suite (attacks over real HTTP, scripts/stack.sh run for real), the schemathesis API
# fuzzer (one test), and the container tests on the production image (scripts/test-container.sh:
# Docker engine, locally built bases, the image), and the Helm chart's checks and its install on a
# real single-node Kubernetes (scripts/test-kube.sh).
# Ends with one "N passed, N failed" line.
set -uo pipefail
cd "$(dirname "$0")/.."
bash scripts/install.sh || exit 1
# The Node.js install.sh provides (Node 24; .tools/node when the machine has an older one).
source scripts/node-env.sh
# NIST's OSCAL 1.1.2 schemas (Maven Central), for the OSCAL validation in the unit and e2e suites.
bash scripts/install-oscal-tools.sh || exit 1

echo "==> lint"
pnpm run -s lint || exit 1

results=$(mktemp -d)
# Kafka and FerretDB run as local processes on free ports with a throw-away run directory; the
# trap stops exactly the processes these scripts started (by their PID files).
infra_run=$(mktemp -d)
export VERDICT_LOCAL_RUN_DIR="$infra_run"
stop_infra() {
  bash deploy/local/kafka.sh stop >/dev/null 2>&1
  bash deploy/local/mongo.sh stop >/dev/null 2>&1
  rm -rf "$infra_run"
}
trap 'stop_infra; rm -rf "$results"' EXIT
# Each jest run has a time limit: a suite that leaves a handle open (Jest then never exits) or
# hangs fails that step instead of eating the whole CI budget. JEST_LIMIT is in seconds.
jest() { timeout -k 15 "${JEST_LIMIT:-1200}" node --experimental-vm-modules node_modules/jest/bin/jest.js "$@"; }
free_port() { node -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})'; }

echo "==> real infrastructure: Apache Kafka 4.x and FerretDB (deploy/local/)"
# When a server does not start, its variable stays unset and, in CI, its contract suite fails.
# The ports are exported: the fault suite restarts Kafka with deploy/local/kafka.sh on the same ones.
export VERDICT_KAFKA_PORT=$(free_port) VERDICT_KAFKA_CONTROLLER_PORT=$(free_port)
bash deploy/local/kafka.sh start | tee "$results/kafka.out" &&
  export VERDICT_TEST_KAFKA_BROKERS="$(sed -n 's/^VERDICT_KAFKA_BROKERS=//p' "$results/kafka.out")"
VERDICT_MONGODB_PORT=$(free_port) bash deploy/local/mongo.sh start | tee "$results/mongo.out" &&
  export VERDICT_TEST_MONGODB_URI="$(sed -n 's/^VERDICT_MONGODB_URI=//p' "$results/mongo.out")"

echo "==> unit tests (Store and Bus contracts on the embedded adapters and on FerretDB and Kafka)"
JEST_LIMIT=900 jest --selectProjects unit --json --outputFile="$results/unit.json"
unit_rc=$?
# The detection benchmark's own logic (sample normalising, scoring maths, claims), on node's test
# runner: the bench files are plain .mjs the jest projects do not pick up.
echo "==> benchmark unit tests (bench/detection)"
node --test bench/detection/ > "$results/bench.log" 2>&1
bench_rc=$?
node -e '
  const log = require("fs").readFileSync(process.argv[1], "utf8");
  const n = (w) => Number((log.match(new RegExp(`^# ${w} (\\d+)`, "m")) ?? [0, 0])[1]);
  console.log(JSON.stringify({ numPassedTests: n("pass"), numFailedTests: n("fail") || (process.argv[2] === "0" ? 0 : 1), numRuntimeErrorTestSuites: 0 }));
' "$results/bench.log" "$bench_rc" > "$results/bench.json"
echo "==> black-box tests (real HTTP, real gRPC, real processes)"
jest --selectProjects e2e --runInBand --json --outputFile="$results/e2e.json"
e2e_rc=$?
echo "==> black-box tests on MongoDB (FerretDB) and Kafka instead of the embedded adapters"
if [ -n "${VERDICT_TEST_MONGODB_URI:-}" ] && [ -n "${VERDICT_TEST_KAFKA_BROKERS:-}" ]; then
  VERDICT_E2E_MONGODB_URI="$VERDICT_TEST_MONGODB_URI" VERDICT_E2E_KAFKA_BROKERS="$VERDICT_TEST_KAFKA_BROKERS" \
    jest --selectProjects e2e --runInBand --testPathPatterns 'test/e2e/(evaluations|policies|tenancy)\.test\.ts' --json --outputFile="$results/e2e-infra.json"
  e2e_infra_rc=$?
else
  echo "Kafka or FerretDB did not start: black-box suites on real infrastructure not run" >&2
  e2e_infra_rc=1
fi
# Distributed mode: every service its own process on the same Kafka and FerretDB (each suite's
# stack with its own database and topic prefix), then the fault suites.
echo "==> black-box tests against the distributed stack (VERDICT_E2E_TARGET=distributed)"
VERDICT_E2E_TARGET=distributed VERDICT_E2E_KAFKA_BROKERS="${VERDICT_TEST_KAFKA_BROKERS:-}" VERDICT_E2E_MONGODB_URI="${VERDICT_TEST_MONGODB_URI:-}" \
  jest --selectProjects e2e --runInBand --json --outputFile="$results/e2e-distributed.json"
e2e_dist_rc=$?
echo "==> fault tests (evaluation worker killed, Kafka restarted)"
VERDICT_E2E_KAFKA_BROKERS="${VERDICT_TEST_KAFKA_BROKERS:-}" VERDICT_E2E_MONGODB_URI="${VERDICT_TEST_MONGODB_URI:-}" \
  jest --selectProjects fault --runInBand --json --outputFile="$results/fault.json"
fault_rc=$?
# The adversarial suite (test/adversarial): attacks on the all-in-one process over real HTTP, and
# scripts/stack.sh run for real (it starts its own FerretDB; Kafka is the one started above).
echo "==> adversarial tests (attacks over real HTTP, noisy neighbours, stack.sh)"
jest --selectProjects adversarial --runInBand --json --outputFile="$results/adversarial.json"
adversarial_rc=$?
stop_infra

echo "==> API fuzzing (schemathesis, from the OpenAPI document)"
bash scripts/fuzz-api.sh > "$results/fuzz.log" 2>&1
fuzz_rc=$?
# schemathesis frames its summary like pytest ("=== 1 warning in 39s ==="); CI log readers
# take such a line for a pytest run with no test, so print the summary without the frame.
tail -25 "$results/fuzz.log" | sed -E 's/^=+ ?(.*[^= ]) ?=+$/-- \1 --/; /^=+$/d'
echo "{\"numPassedTests\": $([ $fuzz_rc -eq 0 ] && echo 1 || echo 0), \"numFailedTests\": $([ $fuzz_rc -eq 0 ] && echo 0 || echo 1), \"numRuntimeErrorTestSuites\": 0}" > "$results/fuzz.json"

echo "==> container tests (the production image on Docker: all-in-one and every service)"
bash scripts/test-container.sh --json --outputFile="$results/container.json"
container_rc=$?

echo "==> Kubernetes tests (the Helm chart: lint, kubeconform, kube-score, then a real single-node cluster)"
bash scripts/test-kube.sh --results "$results"
kube_rc=$?

node -e '
  const fs = require("fs");
  let passed = 0, failed = 0;
  for (const f of process.argv.slice(1)) {
    if (!fs.existsSync(f)) { failed++; continue; }
    const r = JSON.parse(fs.readFileSync(f, "utf8"));
    passed += r.numPassedTests; failed += r.numFailedTests + r.numRuntimeErrorTestSuites;
  }
  console.log(`tests: ${passed} passed, ${failed} failed`);
' "$results/unit.json" "$results/bench.json" "$results/e2e.json" "$results/e2e-infra.json" "$results/e2e-distributed.json" "$results/fault.json" "$results/adversarial.json" "$results/fuzz.json" "$results/container.json" "$results/chart.json" "$results/kube.json"

[ $unit_rc -eq 0 ] && [ $bench_rc -eq 0 ] && [ $e2e_rc -eq 0 ] && [ $e2e_infra_rc -eq 0 ] && [ $e2e_dist_rc -eq 0 ] && [ $fault_rc -eq 0 ] && [ $adversarial_rc -eq 0 ] && [ $fuzz_rc -eq 0 ] && [ $container_rc -eq 0 ] && [ $kube_rc -eq 0 ]
