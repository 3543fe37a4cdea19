#!/usr/bin/env bash
# The README's test command (and what .ci/run calls): install, lint, unit suites (the Store and
# Bus contracts also against real FerretDB and Kafka 4.x, containers started by testcontainers), the
# black-box suites against real running processes (a few of them again on MongoDB + Kafka), the
# adversarial suite (attacks over real HTTP, scripts/stack.sh run for real), the schemathesis API
# fuzzer (one test), the container tests on the production image and the compose stack
# (scripts/test-container.sh: Docker engine, locally built bases, the images, docker compose), and
# the Helm chart's checks and its install on a real single-node Kubernetes (scripts/test-kube.sh).
# Prints each step's duration at the end.
# Ends with one "N passed, N failed" line.
set -uo pipefail
cd "$(dirname "$0")/.."
bash scripts/install.sh || exit 1
# The Node.js install.sh provides (Node 24; .tools/node when the machine has an older one).
source scripts/node-env.sh
# NIST's OSCAL 1.1.2 schemas (Maven Central), for the OSCAL validation in the unit and e2e suites.
bash scripts/install-oscal-tools.sh || exit 1
# Chromium (the passkey suite), curl and jq (the docs walkthrough tests), from Debian's packages;
# Authlib and scim2-tester + scim2-cli (PyPI, pinned, venvs under .tools/: the e2e step runs
# scim2-tester against /scim/v2 in test/e2e/scim-tester.test.ts and needs 0 errors).
bash scripts/install-test-tools.sh || exit 1
# Keycloak (Maven Central, pinned), the SSO suite's identity provider.
bash scripts/install-keycloak.sh > /dev/null || exit 1

echo "==> lint"
pnpm run -s lint || exit 1

results=$(mktemp -d)
# Each step's duration, printed at the end (the CI run has a 90-minute budget).
timings=()
step_t=$(date +%s)
timed() { local now; now=$(date +%s); timings+=("$1 $((now - step_t)) s"); step_t=$now; }
# Kafka and FerretDB run as containers that testcontainers starts (test/containers/infra.ts) from
# images built here from packages (deploy/infra/images.sh: Maven Central, the Go module proxy;
# cached by content hash), on a Docker engine deploy/image/dockerd.sh starts when none answers.
# The trap stops exactly what this script started: the infra program (which stops and removes
# its containers; leftovers of a crash are removed by their run label) and the engine.
infra_pid=""
infra_run="verdict-test-$$-$(date +%s)"
stop_infra() {
  if [ -n "$infra_pid" ]; then
    kill -TERM "$infra_pid" 2>/dev/null && for _ in $(seq 1 120); do kill -0 "$infra_pid" 2>/dev/null || break; sleep 0.5; done
    infra_pid=""
  fi
  if [ -n "${DOCKER_HOST:-}" ]; then
    left=$(docker ps -aq --filter "label=verdict.test-infra=$infra_run" 2>/dev/null)
    [ -z "$left" ] || docker rm -f -v $left >/dev/null 2>&1
  fi
}
# An engine that already answers (another run's, a developer's) is left running.
engine_was_up=0
for h in "${DOCKER_HOST:-}" "unix://${VERDICT_DOCKER_ROOT:-$HOME/.cache/verdict-docker}/docker.sock" unix:///var/run/docker.sock; do
  if [ -n "$h" ] && DOCKER_HOST=$h timeout 10 docker version >/dev/null 2>&1; then engine_was_up=1; break; fi
done
trap 'stop_infra; [ $engine_was_up = 1 ] || bash deploy/image/dockerd.sh stop; rm -rf "$results"' EXIT
# Each jest run has a time limit: a suite that leaves a handle open (Jest then never exits) or
# hangs fails that step instead of eating the whole CI budget. JEST_LIMIT is in seconds.
# --forceExit: once a run has written its results, a handle a failed test left open (a receiver,
# a child process's pipe) must not hold the step until its time limit (it held one for 8 minutes).
jest() { timeout -k 15 "${JEST_LIMIT:-1200}" node --experimental-vm-modules node_modules/jest/bin/jest.js --forceExit "$@"; }
timed "install and lint"

echo "==> real infrastructure: Apache Kafka 4.x and FerretDB as containers (testcontainers)"
# When a server does not start, its variable stays unset and, in CI, its contract suite fails.
if engine=$(bash deploy/image/dockerd.sh start); then
  export "${engine?}"
  bash deploy/image/base.sh && images=$(VERDICT_INFRA_BASE=verdict-local/debian:bookworm-slim bash deploy/infra/images.sh) &&
    for line in $images; do export "${line?}"; done
  timed "docker engine, base and infra images"
  if [ -n "${VERDICT_KAFKA_IMAGE:-}" ] && [ -n "${VERDICT_FERRETDB_IMAGE:-}" ]; then
    mkdir -p "$results/infra-logs"
    VERDICT_INFRA_RUN_ID="$infra_run" VERDICT_INFRA_LOG_DIR="$results/infra-logs" \
      node test/containers/infra.ts "$results/infra.env" > /dev/null &
    infra_pid=$!
    # The program writes the file once both servers serve (or exits if they do not).
    while kill -0 "$infra_pid" 2>/dev/null && [ ! -s "$results/infra.env" ]; do sleep 0.5; done
    if [ -s "$results/infra.env" ]; then
      set -a; . "$results/infra.env"; set +a
      cat "$results/infra.env"
    else
      echo "the Kafka and FerretDB containers did not start" >&2
      tail -20 "$results"/infra-logs/*.log >&2 2>/dev/null
    fi
  fi
  timed "Kafka and FerretDB containers"
fi

echo "==> unit tests (Store and Bus contracts on the embedded adapters and on FerretDB and Kafka)"
# The three tiers beside the code (unit, transport: gRPC servers, medium: real adapters), in one run.
JEST_LIMIT=900 jest --selectProjects unit transport medium --json --outputFile="$results/unit.json"
unit_rc=$?
timed "unit"
# The detection benchmark's own logic (sample normalising, scoring maths, claims), and every
# benchmark command the docs show run for real in its smoke mode (bench/commands.test.mjs,
# VERDICT_BENCH_QUICK=1, about 30 s of CPU), on node's test runner: the bench files are plain
# .mjs the jest projects do not pick up. Files, not the directory: Node 24's runner takes a
# directory argument for a file to run.
echo "==> benchmark tests (bench/detection/*.test.mjs, bench/*.test.mjs)"
node --test bench/detection/*.test.mjs bench/*.test.mjs > "$results/bench.log" 2>&1
bench_rc=$?
timed "bench"
node -e '
  const log = require("fs").readFileSync(process.argv[1], "utf8");
  const n = (w) => Number((log.match(new RegExp(`^# ${w} (\\d+)`, "m")) ?? [0, 0])[1]);
  console.log(JSON.stringify({ numPassedTests: n("pass"), numFailedTests: n("fail") || (process.argv[2] === "0" ? 0 : 1), numRuntimeErrorTestSuites: 0 }));
' "$results/bench.log" "$bench_rc" > "$results/bench.json"
echo "==> black-box tests (real HTTP, real gRPC, real processes)"
jest --selectProjects e2e --runInBand --json --outputFile="$results/e2e.json"
e2e_rc=$?
timed "e2e"
echo "==> the web dashboard in Chromium (playwright-core, axe-core, screenshots in test/portal/screenshots)"
jest --selectProjects portal --runInBand --json --outputFile="$results/portal.json"
portal_rc=$?
timed "portal"
echo "==> black-box tests on MongoDB (FerretDB) and Kafka instead of the embedded adapters"
if [ -n "${VERDICT_TEST_MONGODB_URI:-}" ] && [ -n "${VERDICT_TEST_KAFKA_BROKERS:-}" ]; then
  VERDICT_E2E_MONGODB_URI="$VERDICT_TEST_MONGODB_URI" VERDICT_E2E_KAFKA_BROKERS="$VERDICT_TEST_KAFKA_BROKERS" \
    jest --selectProjects e2e --runInBand --testPathPatterns 'test/e2e/(evaluations|evaluation-stats|policies|tenancy)\.test\.ts' --json --outputFile="$results/e2e-infra.json"
  e2e_infra_rc=$?
else
  echo "Kafka or FerretDB did not start: black-box suites on real infrastructure not run" >&2
  e2e_infra_rc=1
fi
timed "e2e on Kafka+FerretDB"
# Distributed mode: every service its own process on the same Kafka and FerretDB (each suite's
# stack with its own database and topic prefix), then the fault suites.
echo "==> black-box tests against the distributed stack (VERDICT_E2E_TARGET=distributed)"
VERDICT_E2E_TARGET=distributed VERDICT_E2E_KAFKA_BROKERS="${VERDICT_TEST_KAFKA_BROKERS:-}" VERDICT_E2E_MONGODB_URI="${VERDICT_TEST_MONGODB_URI:-}" \
  jest --selectProjects e2e --runInBand --json --outputFile="$results/e2e-distributed.json"
e2e_dist_rc=$?
timed "e2e distributed"
echo "==> fault tests (evaluation worker killed, Kafka restarted)"
VERDICT_E2E_KAFKA_BROKERS="${VERDICT_TEST_KAFKA_BROKERS:-}" VERDICT_E2E_MONGODB_URI="${VERDICT_TEST_MONGODB_URI:-}" \
  jest --selectProjects fault --runInBand --json --outputFile="$results/fault.json"
fault_rc=$?
timed "fault"
# The adversarial suite (test/adversarial): attacks on the all-in-one process over real HTTP, and
# scripts/stack.sh run for real (it starts its own FerretDB; Kafka is the one started above).
echo "==> adversarial tests (attacks over real HTTP, noisy neighbours, stack.sh)"
jest --selectProjects adversarial --runInBand --json --outputFile="$results/adversarial.json"
adversarial_rc=$?
timed "adversarial"
stop_infra

# Enterprise SSO (test/sso): a real Keycloak (scripts/install-keycloak.sh, cached under
# ~/.cache/verdict-keycloak) started once for the suite; OIDC and SAML sign-ins in Chromium.
echo "==> SSO tests (Keycloak as OIDC provider and SAML IdP, Chromium)"
jest --selectProjects sso --runInBand --json --outputFile="$results/sso.json"
sso_rc=$?
timed "sso (Keycloak)"

echo "==> API fuzzing (schemathesis, from the OpenAPI document)"
bash scripts/fuzz-api.sh > "$results/fuzz.log" 2>&1
fuzz_rc=$?
timed "fuzzing"
# schemathesis frames its summary like pytest ("=== 1 warning in 39s ==="); CI log readers
# take such a line for a pytest run with no test, so print the summary without the frame.
tail -25 "$results/fuzz.log" | sed -E 's/^=+ ?(.*[^= ]) ?=+$/-- \1 --/; /^=+$/d'
echo "{\"numPassedTests\": $([ $fuzz_rc -eq 0 ] && echo 1 || echo 0), \"numFailedTests\": $([ $fuzz_rc -eq 0 ] && echo 0 || echo 1), \"numRuntimeErrorTestSuites\": 0}" > "$results/fuzz.json"

echo "==> container tests (the production image on Docker: all-in-one and every service)"
bash scripts/test-container.sh --json --outputFile="$results/container.json"
container_rc=$?
timed "container"

echo "==> Kubernetes tests (the Helm chart: lint, kubeconform, kube-score, then a real single-node cluster)"
bash scripts/test-kube.sh --results "$results"
kube_rc=$?
timed "kubernetes"
echo "==> step timings: ${timings[*]/%/;}"

node -e '
  const fs = require("fs");
  let passed = 0, failed = 0;
  for (const f of process.argv.slice(1)) {
    if (!fs.existsSync(f)) { failed++; continue; }
    const r = JSON.parse(fs.readFileSync(f, "utf8"));
    passed += r.numPassedTests; failed += r.numFailedTests + r.numRuntimeErrorTestSuites;
  }
  console.log(`tests: ${passed} passed, ${failed} failed`);
' "$results/unit.json" "$results/bench.json" "$results/e2e.json" "$results/portal.json" "$results/e2e-infra.json" "$results/e2e-distributed.json" "$results/fault.json" "$results/adversarial.json" "$results/sso.json" "$results/fuzz.json" "$results/container.json" "$results/chart.json" "$results/kube.json"

[ $unit_rc -eq 0 ] && [ $bench_rc -eq 0 ] && [ $e2e_rc -eq 0 ] && [ $portal_rc -eq 0 ] && [ $e2e_infra_rc -eq 0 ] && [ $e2e_dist_rc -eq 0 ] && [ $fault_rc -eq 0 ] && [ $adversarial_rc -eq 0 ] && [ $sso_rc -eq 0 ] && [ $fuzz_rc -eq 0 ] && [ $container_rc -eq 0 ] && [ $kube_rc -eq 0 ]
