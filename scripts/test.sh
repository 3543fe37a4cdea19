#!/usr/bin/env bash
# The README's test command (and what .ci/run calls): install, lint, unit suites (the Store and
# Bus contracts also against real FerretDB and Kafka 4.x, containers started by testcontainers), the
# black-box suites against real running processes (a few of them again on MongoDB + Kafka), the
# adversarial suite (attacks over real HTTP, scripts/stack.sh run for real), the schemathesis API
# fuzzer (one test), the container tests on the production image and the compose stack
# (scripts/test-container.sh: Docker engine, locally built bases, the images, docker compose), and
# the Helm chart's checks and its install on a real single-node Kubernetes (scripts/test-kube.sh).
# Prints each step's duration at the end, and those of the builds it runs in the background.
# Ends with one "N passed, N failed" line.
#
# The long builds start in the background at the beginning and overlap the suites that do not
# need them (docs/development.md, "The whole test command"): the Go tools (Docker Compose, then
# helm, kubeconform, kube-score, then Kubernetes with metrics-server, CoreDNS and the
# NetworkPolicy agent; at a lower CPU priority than the suites), and the production image
# (verdict:test, shared by the container and Kubernetes steps) once the unit step is done. A
# step that needs one waits for it; a build that failed fails its step with the build's log. The
# suites on Kafka and FerretDB run as a second lane beside the e2e and portal steps (lane_start).
#
# For developers (never used by CI): `bash scripts/test.sh --only STEP` (repeatable) runs the
# given steps, with the installs, engine and builds they need, and no lint unless asked. Steps:
#   lint unit bench e2e portal integrations e2e-infra e2e-distributed fault adversarial sso fuzzing container kubernetes
set -uo pipefail
cd "$(dirname "$0")/.."
STEPS="lint unit bench e2e portal integrations e2e-infra e2e-distributed fault adversarial sso fuzzing container kubernetes"
only=()
while [ $# -gt 0 ]; do
  case "$1" in
    --only) [ $# -ge 2 ] || { echo "--only needs a step: $STEPS" >&2; exit 2; }; only+=("$2"); shift 2 ;;
    --only=*) only+=("${1#--only=}"); shift ;;
    *) echo "usage: bash scripts/test.sh [--only STEP]...   (steps: $STEPS)" >&2; exit 2 ;;
  esac
done
for s in "${only[@]}"; do
  [[ " $STEPS " == *" $s "* ]] || { echo "unknown step '$s'; steps: $STEPS" >&2; exit 2; }
done
# wants STEP...: whether this run runs any of the steps (all of them without --only).
wants() {
  [ ${#only[@]} -eq 0 ] && return 0
  local s
  for s in "$@"; do [[ " ${only[*]} " == *" $s "* ]] && return 0; done
  return 1
}

# The run's own temporary directory, removed when it ends (the trap below): every step's
# temporary files (jest runs take their own inside it, jest.global-setup.js), and whatever a
# step killed mid-way leaves. The disk is shared, and earlier runs' leftovers once filled it.
# A run killed outright (SIGKILL, the end of a CI job or a session) cannot remove its own: the
# directories of runs whose process is gone are removed here (each names its run's PID).
for d in "${TMPDIR:-/tmp}"/verdict-run-*; do
  [ -f "$d/.run-pid" ] && ! kill -0 "$(cat "$d/.run-pid")" 2>/dev/null && rm -rf "$d"
done
run_tmp=$(mktemp -d "${TMPDIR:-/tmp}/verdict-run-XXXXXX")
echo $$ > "$run_tmp/.run-pid"
export TMPDIR=$run_tmp
# V8's compile cache for every Node.js process of the run (jest and its TypeScript, each Verdict
# process a suite starts, the CLI): a module compiled once is read back by the next process that
# loads it (test/support/paths.ts passes it to the processes started with an environment of their
# own). Measured on three e2e files (sdk, expiry, mfa): 38-39 s without, 36-37 s with.
export NODE_COMPILE_CACHE=$run_tmp/node-compile-cache
results=$(mktemp -d)
step_t=$(date +%s)
# Background builds: bg_start NAME COMMAND... runs COMMAND in its own process group with its
# output in $results/bg-NAME.log; bg_wait NAME waits for it and, when it failed, says so with the
# end of its log. Their durations are printed with the steps'.
declare -A bg_pid=() bg_t0=()
bg_start() {
  local name=$1; shift
  bg_t0[$name]=$(date +%s)
  setsid bash -c '"$@"; rc=$?; echo $rc > "$0.rc"; date +%s > "$0.end"; exit $rc' "$results/bg-$name" "$@" > "$results/bg-$name.log" 2>&1 &
  bg_pid[$name]=$!
  echo "==> background build '$name' started (log: $results/bg-$name.log)"
}
bg_wait() {
  local name=$1 rc t
  [ -n "${bg_pid[$name]:-}" ] || { echo "background build '$name' was never started" >&2; return 1; }
  t=$(date +%s)
  if [[ ${bg_pid[$name]} == done-* ]]; then
    rc=${bg_pid[$name]#done-}
  elif [ "$BASHPID" != $$ ]; then
    # In a lane (a subshell), which cannot wait for the script's children: the exit code the
    # build writes when it ends (none if it was killed).
    while [ ! -e "$results/bg-$name.end" ] && kill -0 "${bg_pid[$name]}" 2>/dev/null; do sleep 2; done
    rc=$(cat "$results/bg-$name.rc" 2>/dev/null || echo 1)
  else
    wait "${bg_pid[$name]}"
    rc=$?
    bg_pid[$name]=done-$rc
  fi
  [ "$t" -ge "$(cat "$results/bg-$name.end" 2>/dev/null || echo 0)" ] || echo "==> waited $(($(date +%s) - t)) s for background build '$name'"
  if [ $rc -ne 0 ]; then
    echo "BACKGROUND BUILD FAILED: '$name' exited with $rc; the steps that need it fail. The end of its log ($results/bg-$name.log):" >&2
    tail -30 "$results/bg-$name.log" >&2
    return 1
  fi
}
bg_timings() {
  local name end
  for name in "${!bg_t0[@]}"; do
    end=$(cat "$results/bg-$name.end" 2>/dev/null) || { printf '%s ' "$name (background) not finished;"; continue; }
    printf '%s ' "$name (background) $((end - bg_t0[$name])) s;"
  done
}
# Background builds still running when the script ends (a failure, Ctrl-C) are stopped.
stop_bg() {
  local name pid
  for name in "${!bg_pid[@]}"; do
    pid=${bg_pid[$name]}
    [[ $pid == done-* ]] || kill -TERM -- "-$pid" 2>/dev/null
  done
}

trap 'stop_bg; rm -rf "$run_tmp"' EXIT

# The Go tools, one after the other (they share the Go build cache and the cores), at a lower CPU
# priority than the suites, which keep the machine's cores when they need them: Docker Compose
# (the container step), then the chart's static-check tools and Kubernetes (the Kubernetes
# step). Each is cached and returns at once when already built.
if wants container; then bg_start compose nice -n 10 bash scripts/install-compose.sh; fi
if wants kubernetes; then
  bg_start kube-tools nice -n 10 bash -c 'while [ -n "$0" ] && [ ! -e "$0" ]; do sleep 2; done
    bash deploy/kube/tools.sh chart && bash deploy/kube/tools.sh kube' "${bg_t0[compose]:+$results/bg-compose.end}"
fi

# Downloads the suites need, over the network while install.sh compiles (one after the other:
# two of them use Maven's local repository): NIST's OSCAL 1.1.2 schemas (Maven Central), for the
# OSCAL validation in the unit and e2e suites; Chromium (the passkey suite), curl and jq (the docs
# walkthrough tests), from Debian's packages; Authlib and scim2-tester + scim2-cli (PyPI, pinned,
# venvs under .tools/: the e2e step runs scim2-tester against /scim/v2 in
# test/e2e/scim-tester.test.ts and needs 0 errors); Keycloak (Maven Central, pinned), the SSO
# suite's identity provider.
downloads="bash scripts/install-oscal-tools.sh && bash scripts/install-test-tools.sh"
wants sso && downloads+=" && bash scripts/install-keycloak.sh > /dev/null"
# Gitea, the integrations suite's Git host: built from the Go module proxy (about 6 minutes the
# first time, then cached under ~/.cache/verdict-gitea), waited for only by its step.
if wants integrations; then bg_start gitea nice -n 10 bash scripts/install-gitea.sh; fi
bg_start downloads bash -c "set -e; $downloads"
bash scripts/install.sh || exit 1
# The Node.js install.sh provides (Node 24; .tools/node when the machine has an older one).
source scripts/node-env.sh

# Each step's duration, printed at the end (the CI run has a 90-minute budget).
timings=()
timed() { local now; now=$(date +%s); timings+=("$1 $((now - step_t)) s"); step_t=$now; }
timed "install"
# The JSON reports of the steps run, summed up at the end, and the steps that failed.
reports=()
failed_steps=()
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
# lane_start NAME FUNCTION: runs the steps FUNCTION runs in the background beside the script's own
# (its own process group; its output in $results/lane-NAME.log). lane_join NAME waits for it, prints
# its output, and takes its steps' timings, reports and failures into the script's.
declare -A lane_pid=() lane_t0=()
lane_start() {
  local name=$1 fn=$2
  lane_t0[$name]=$(date +%s)
  echo "==> the $name lane starts beside the steps below (its output follows when it ends)"
  set -m
  (
    timings=() reports=() failed_steps=()
    step_t=$(date +%s)
    "$fn"
    printf '%s\n' "${timings[@]}" > "$results/lane-$name.timings"
    printf '%s\n' "${reports[@]}" > "$results/lane-$name.reports"
    printf '%s\n' "${failed_steps[@]}" > "$results/lane-$name.failed_steps"
  ) > "$results/lane-$name.log" 2>&1 &
  lane_pid[$name]=$!
  set +m
}
lane_join() {
  local name=$1 t line
  [ -n "${lane_pid[$name]:-}" ] || return 0
  t=$(date +%s)
  wait "${lane_pid[$name]}"
  unset "lane_pid[$name]"
  echo "==> the $name lane (waited $(($(date +%s) - t)) s for it):"
  cat "$results/lane-$name.log"
  while IFS= read -r line; do [ -z "$line" ] || timings+=("$line ($name lane)"); done < "$results/lane-$name.timings"
  while IFS= read -r line; do [ -z "$line" ] || reports+=("$line"); done < "$results/lane-$name.reports"
  while IFS= read -r line; do [ -z "$line" ] || failed_steps+=("$line"); done < "$results/lane-$name.failed_steps"
  timings+=("$name lane $(($(date +%s) - lane_t0[$name])) s")
  timed "waiting for the $name lane"
}
# A lane still running when the script ends early is stopped with its process group.
stop_lanes() {
  local name
  for name in "${!lane_pid[@]}"; do kill -TERM -- "-${lane_pid[$name]}" 2>/dev/null; done
}
trap 'stop_lanes; stop_bg; stop_infra; [ $engine_was_up = 1 ] || bash deploy/image/dockerd.sh stop; rm -rf "$run_tmp"' EXIT
# Each jest run has a time limit: a suite that leaves a handle open (Jest then never exits) or
# hangs fails that step instead of eating the whole CI budget. JEST_LIMIT is in seconds.
# --forceExit: once a run has written its results, a handle a failed test left open (a receiver,
# a child process's pipe) must not hold the step until its time limit (it held one for 8 minutes).
jest() { timeout -k 15 "${JEST_LIMIT:-1200}" node --experimental-vm-modules node_modules/jest/bin/jest.js --forceExit "$@"; }

# The engine, then the local bases and the Kafka and FerretDB images (deploy/image/base.sh:
# debootstrap from the apt mirror; deploy/infra/images.sh: Maven Central, FerretDB from the Go
# module proxy) in the background while lint runs, for the steps on Kafka and FerretDB and the
# image builds.
needs_infra() { wants unit e2e-infra e2e-distributed fault adversarial; }
engine_ok=0
if needs_infra || wants container kubernetes; then
  if engine=$(bash deploy/image/dockerd.sh start); then
    export "${engine?}"
    # What runs killed outright left on the engine: their Kafka and FerretDB containers, with their
    # volumes (the label names the run's PID; six such volumes were found here), and the stopped
    # containers of image builds cut short.
    for c in $(docker ps -aq --filter "label=verdict.test-infra" 2>/dev/null); do
      owner=$(docker inspect -f '{{index .Config.Labels "verdict.test-infra"}}' "$c" 2>/dev/null)
      [[ $owner =~ ^verdict-test-([0-9]+)- ]] && ! kill -0 "${BASH_REMATCH[1]}" 2>/dev/null && docker rm -f -v "$c" >/dev/null 2>&1
    done
    docker container prune -f --filter "label=io.verdict.stage=build" >/dev/null 2>&1
    bg_start infra-images bash -c 'bash deploy/image/base.sh >&2 && VERDICT_INFRA_BASE=verdict-local/debian:bookworm-slim bash deploy/infra/images.sh > "$0"' "$results/infra-images.env"
  fi
fi
if wants lint; then
  echo "==> lint"
  pnpm run -s lint || exit 1
  timed "lint"
fi
bg_wait downloads || exit 1
cat "$results/bg-downloads.log"
if [ -n "${bg_t0[infra-images]:-}" ]; then
  echo "==> Docker engine, local bases and the Kafka and FerretDB images"
  if bg_wait infra-images; then
    for line in $(cat "$results/infra-images.env"); do export "${line?}"; done
    engine_ok=1
  fi
  timed "docker engine, base and infra images (after lint)"
fi
# The production image (verdict:test) and the compose stack's images, built by the engine while
# the suites run: the container step runs on them and the Kubernetes step loads the same
# verdict:test. Started after the unit step (whose timing-sensitive thread tests get the CPU to
# themselves), or at once when that step is not run.
start_images() {
  if [ $engine_ok = 1 ] && wants container kubernetes && [ -z "${bg_t0[images]:-}" ]; then
    bg_start images env VERDICT_LOCAL_BASES=1 VERDICT_IMAGE=verdict:test bash deploy/compose/images.sh
  fi
}
wants unit || start_images

if needs_infra && [ $engine_ok = 1 ]; then
  echo "==> real infrastructure: Apache Kafka 4.x and FerretDB as containers (testcontainers)"
  # When a server does not start, its variable stays unset and, in CI, its contract suite fails.
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


# jest_step STEP LABEL HEADLINE JEST-ARGS...: one jest run as a step; its JSON report is
# $results/STEP.json (a report never written counts as a failure in the summary).
jest_step() {
  local step=$1 label=$2
  echo "==> $3"
  shift 3
  reports+=("$results/$step.json")
  jest "$@" --json --outputFile="$results/$step.json" || failed_steps+=("$step")
  timed "$label"
}
# infra_step: the same on the Kafka and FerretDB started above; the step fails when they did not start.
infra_step() {
  if [ -n "${VERDICT_TEST_MONGODB_URI:-}" ] && [ -n "${VERDICT_TEST_KAFKA_BROKERS:-}" ]; then
    VERDICT_E2E_MONGODB_URI="$VERDICT_TEST_MONGODB_URI" VERDICT_E2E_KAFKA_BROKERS="$VERDICT_TEST_KAFKA_BROKERS" jest_step "$@"
  else
    echo "Kafka or FerretDB did not start: the $1 step fails" >&2
    reports+=("$results/$1.json")
    failed_steps+=("$1")
    timed "$2"
  fi
}

if wants unit; then
  # The three tiers beside the code (unit, transport: gRPC servers, medium: real adapters), in one run.
  JEST_LIMIT=900 jest_step unit unit "unit tests (Store and Bus contracts on the embedded adapters and on FerretDB and Kafka)" \
    --selectProjects unit transport medium
  start_images
fi
if wants bench; then
  # The detection benchmark's own logic (sample normalising, scoring maths, claims), and every
  # benchmark command the docs show run for real in its smoke mode (bench/commands.test.mjs,
  # VERDICT_BENCH_QUICK=1, about 30 s of CPU), on node's test runner: the bench files are plain
  # .mjs the jest projects do not pick up. Files, not the directory: Node 24's runner takes a
  # directory argument for a file to run.
  echo "==> benchmark tests (bench/detection/*.test.mjs, bench/*.test.mjs)"
  node --test bench/detection/*.test.mjs bench/*.test.mjs > "$results/bench.log" 2>&1
  bench_rc=$?
  # The log is in the run's temporary directory, removed at the end: a failure is shown here.
  if [ $bench_rc -ne 0 ]; then
    failed_steps+=(bench)
    echo "BENCHMARK TESTS FAILED; the failing tests (the end of $results/bench.log):"
    sed -n '/failing tests:/,$p' "$results/bench.log" | head -80
  fi
  timed "bench"
  reports+=("$results/bench.json")
  node -e '
    const log = require("fs").readFileSync(process.argv[1], "utf8");
    // The totals node prints: "# pass N" (TAP reporter), "ℹ pass N" (spec, the default on Node 24).
    const n = (w) => Number((log.match(new RegExp(`^(?:#|ℹ) ${w} (\\d+)`, "m")) ?? [0, 0])[1]);
    console.log(JSON.stringify({ numPassedTests: n("pass"), numFailedTests: n("fail") || (process.argv[2] === "0" ? 0 : 1), numRuntimeErrorTestSuites: 0 }));
  ' "$results/bench.log" "$bench_rc" > "$results/bench.json"
fi
# Two lanes side by side: each suite runs one test file at a time, and a file mostly waits on the
# process it talks to (a request, then its answer), so one lane keeps about one core busy (measured
# per step in docs/development.md). The infra lane holds every suite on the Kafka and FerretDB
# started above (the fault suite restarts that Kafka, so nothing else on it may run beside it); the
# main lane holds the suites on the embedded store and bus, which never touch them.
infra_lane() {
  wants e2e-infra && infra_step e2e-infra "e2e on Kafka+FerretDB" "black-box tests on MongoDB (FerretDB) and Kafka instead of the embedded adapters" \
    --selectProjects e2e --runInBand --testPathPatterns 'test/e2e/(evaluations|evaluation-stats|policies|tenancy)\.test\.ts'
  # Distributed mode: every service its own process on the same Kafka and FerretDB (each suite's
  # stack with its own database and topic prefix), then the fault suites. Only the black-box suites
  # whose code path differs between the all-in-one and the distributed stack run here (the e2e
  # step runs them all on the all-in-one): the evaluation queue and its worker on Kafka, the
  # outbox and the webhooks service, events and the audit log across services, reports, tenancy
  # on the MongoDB wire, traces across process boundaries, people's sign-in and lockout through
  # the identity process, and starting, draining and restarting processes. The others (sign-in
  # flows, OAuth, SCIM, passkeys, the CLI, the SDK, MCP, the OpenAPI document, rate limits) run the
  # same gateway and use-case code either way. docs/distributed.md explains the choice.
  # In two runs, each under its own time limit: the nine suites in one run took 1,133 s of their
  # 1,200 at load 15-30 and the limit stopped the last three.
  if wants e2e-distributed; then
    local part suites
    for part in 1 2; do
      [ $part = 1 ] && suites=$DISTRIBUTED_SUITES_1 || suites=$DISTRIBUTED_SUITES_2
      VERDICT_E2E_TARGET=distributed infra_step "e2e-distributed-$part" "e2e distributed ($part/2)" \
        "black-box tests against the distributed stack (VERDICT_E2E_TARGET=distributed; $suites)" \
        --selectProjects e2e --runInBand --testPathPatterns "test/e2e/($suites)\\.test\\.ts"
    done
  fi
  wants fault && infra_step fault fault "fault tests (evaluation worker killed, Kafka restarted, each service killed during pull-request events)" --selectProjects fault --runInBand
  return 0
}
DISTRIBUTED_SUITES_1='audit|lifecycle|tracing|webhooks'
DISTRIBUTED_SUITES_2='compliance|evaluation-stats|evaluations|people|tenancy'
if wants e2e-infra e2e-distributed fault; then
  # The built files every jest run brings up to date first (jest.global-setup.js), brought up to
  # date once here, so that the two lanes' runs find nothing to build at the same time.
  node -e 'import("./jest.global-setup.js").then((m) => m.default())' || exit 1
  lane_start infra infra_lane
fi
# In two runs of half the suites each (jest --shard), each under its own time limit: the 42
# suites in one run took 1,200 s on a loaded machine (CI's too) and the limit stopped them.
if wants e2e; then
  jest_step e2e-1 "e2e (1/2)" "black-box tests, first half (real HTTP, real gRPC, real processes)" --selectProjects e2e --runInBand --shard=1/2
  jest_step e2e-2 "e2e (2/2)" "black-box tests, second half" --selectProjects e2e --runInBand --shard=2/2
fi
wants portal && jest_step portal portal "the web dashboard in Chromium (playwright-core, axe-core, screenshots in test/portal/screenshots)" \
  --selectProjects portal --runInBand
# Connected repositories (test/integrations): a real Gitea, pull requests pushed with git, Verdict's
# status and comments brought by Gitea's own webhook.
if wants integrations; then
  if bg_wait gitea; then
    jest_step integrations integrations "connected repositories on a real Gitea (statuses and review comments)" \
      --selectProjects integrations --runInBand
  else
    cat "$results/bg-gitea.log" >&2
    echo "Gitea did not build: the integrations step fails" >&2
    failed_steps+=(integrations)
  fi
fi
lane_join infra

# The adversarial suite (test/adversarial): attacks on the all-in-one process over real HTTP, and
# scripts/stack.sh run for real (it starts its own FerretDB; Kafka is the one started above).
# Nothing runs beside it: beside the Kubernetes step's upgrade (ten pods starting at once, load
# 50 on the 2 cores) a Verdict it started had 3.4 s of CPU in 90 s and its HTTP tests failed.
wants adversarial && jest_step adversarial adversarial "adversarial tests (attacks over real HTTP, noisy neighbours, stack.sh)" \
  --selectProjects adversarial --runInBand
stop_infra

# The Kubernetes step runs as a lane of its own beside the steps that follow (SSO and fuzzing,
# container): its cluster mostly waits on rollouts and probes, and those steps keep about one
# core busy (docs/development.md). It has its own cluster (containerd, not the Docker engine,
# which it only reads images from), and its NodePorts (30080, 30081, 30090) are its own.
kube_lane() {
  echo "==> Kubernetes tests (the Helm chart: lint, kubeconform, kube-score, then a real single-node cluster)"
  reports+=("$results/chart.json" "$results/kube.json")
  if [ $engine_ok = 1 ] && bg_wait kube-tools && bg_wait images; then
    bash scripts/test-kube.sh --results "$results" || failed_steps+=(kubernetes)
  else
    echo "the Kubernetes step did not run: the engine or a build it needs failed (above)" >&2
    failed_steps+=(kubernetes)
  fi
  timed "kubernetes"
}
wants kubernetes && lane_start kube kube_lane

# The API fuzzer runs beside the SSO suite: each has its own all-in-one on its own port, and
# both mostly wait (Keycloak's and Chromium's round trips; schemathesis's requests), so side by
# side they take little more than the longer of the two.
if wants fuzzing; then
  echo "==> API fuzzing (schemathesis, from the OpenAPI document), beside the SSO suite"
  fuzz_t0=$(date +%s)
  (bash scripts/fuzz-api.sh > "$results/fuzz.log" 2>&1; rc=$?; date +%s > "$results/fuzz.end"; exit $rc) &
  fuzz_pid=$!
fi
# Enterprise SSO (test/sso): a real Keycloak (scripts/install-keycloak.sh, cached under
# ~/.cache/verdict-keycloak) started once for the suite; OIDC and SAML sign-ins in Chromium.
wants sso && jest_step sso "sso (Keycloak)" "SSO tests (Keycloak as OIDC provider and SAML IdP, Chromium)" --selectProjects sso --runInBand
if wants fuzzing; then
  wait "$fuzz_pid"
  fuzz_rc=$?
  [ $fuzz_rc -eq 0 ] || failed_steps+=(fuzzing)
  timings+=("fuzzing (beside sso) $(($(cat "$results/fuzz.end" 2>/dev/null || date +%s) - fuzz_t0)) s")
  timed "fuzzing (after sso)"
  # schemathesis frames its summary like pytest ("=== 1 warning in 39s ==="); CI log readers
  # take such a line for a pytest run with no test, so print the summary without the frame.
  tail -25 "$results/fuzz.log" | sed -E 's/^=+ ?(.*[^= ]) ?=+$/-- \1 --/; /^=+$/d'
  # On a failure, each failing operation with its request and answer (the results folder goes).
  if [ $fuzz_rc -ne 0 ]; then
    sed -n '/^=* FAILURES =*$/,/^=* \(WARNINGS\|SUMMARY\) =*$/p' "$results/fuzz.log" | head -300 |
      sed -E 's/^=+ ?(.*[^= ]) ?=+$/-- \1 --/; /^=+$/d'
  fi
  reports+=("$results/fuzz.json")
  echo "{\"numPassedTests\": $([ $fuzz_rc -eq 0 ] && echo 1 || echo 0), \"numFailedTests\": $([ $fuzz_rc -eq 0 ] && echo 0 || echo 1), \"numRuntimeErrorTestSuites\": 0}" > "$results/fuzz.json"
fi

if wants container; then
  echo "==> container tests (the production image on Docker: all-in-one and every service)"
  # A report that is never written counts as a failure in the summary.
  reports+=("$results/container.json")
  if [ $engine_ok = 1 ] && bg_wait compose && bg_wait images; then
    bash scripts/test-container.sh --json --outputFile="$results/container.json" || failed_steps+=(container)
  else
    echo "the container step did not run: the engine or a build it needs failed (above)" >&2
    failed_steps+=(container)
  fi
  timed "container"
fi

lane_join kube
echo "==> step timings: ${timings[*]/%/;} $(bg_timings)"
[ ${#failed_steps[@]} -eq 0 ] || echo "==> failed steps: ${failed_steps[*]}"

node -e '
  const fs = require("fs");
  let passed = 0, failed = 0;
  for (const f of process.argv.slice(1)) {
    if (!fs.existsSync(f)) { failed++; continue; }
    const r = JSON.parse(fs.readFileSync(f, "utf8"));
    passed += r.numPassedTests; failed += r.numFailedTests + r.numRuntimeErrorTestSuites;
  }
  console.log(`tests: ${passed} passed, ${failed} failed`);
' "${reports[@]}"

# The summary above stays the last line.
[ ${#failed_steps[@]} -eq 0 ]
