#!/usr/bin/env bash
# Verdict in distributed mode on one machine: Kafka and the MongoDB-compatible database (through
# deploy/local), then every service as its own process, then the gateway.
#
#   bash scripts/stack.sh up       # returns once GET /v1/health/ready answers 200: the gateway reaches every service (idempotent)
#   bash scripts/stack.sh down     # stops what `up` started, in reverse order (idempotent)
#   bash scripts/stack.sh status
#
# Logs and PID files: $VERDICT_DATA_DIR/stack/ (default ./data/stack); the local Kafka's and
# FerretDB's data, logs and PID files: $VERDICT_DATA_DIR/infra/. Honours VERDICT_HTTP_PORT
# (8080), VERDICT_MCP_PORT (8090: the MCP tool server, Streamable HTTP at /mcp), VERDICT_DATA_DIR, VERDICT_BOOTSTRAP_API_KEY, VERDICT_GRPC_BASE_PORT (50051: identity
# N, policy N+1, evaluation N+2, compliance N+3, webhooks N+4, integrations N+5, further evaluation workers N+11…), VERDICT_EVALUATION_WORKERS
# (1), VERDICT_KAFKA_BROKERS and VERDICT_MONGODB_URI (when set, that Kafka / database is used
# as it is and not started; otherwise VERDICT_KAFKA_PORT (19092), VERDICT_KAFKA_CONTROLLER_PORT and
# VERDICT_MONGODB_PORT (27018) place the local ones), and every other VERDICT_* variable of the services.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/node-env.sh  # the Node.js scripts/install.sh provides
ROOT=$PWD

export VERDICT_DATA_DIR=${VERDICT_DATA_DIR:-./data}
mkdir -p "$VERDICT_DATA_DIR"
export VERDICT_DATA_DIR=$(cd "$VERDICT_DATA_DIR" && pwd)
STACK=$VERDICT_DATA_DIR/stack
# The local Kafka and FerretDB keep their data with the rest of this stack's data, so that two
# data directories are two separate Verdicts (deploy/local's own default is deploy/local/.run).
export VERDICT_LOCAL_RUN_DIR=$VERDICT_DATA_DIR/infra
# The port layout (defaults and each service's offset from the gRPC base) from its one place,
# libs/runtime/src/ports.ts.
[ -f libs/runtime/dist/ports.js ] || { echo "stack: libs/runtime/dist/ports.js is missing: run bash scripts/install.sh first" >&2; exit 1; }
eval "$(node libs/runtime/dist/ports.js)"
HTTP_PORT=${VERDICT_HTTP_PORT:-$DEFAULT_HTTP_PORT}
MCP_PORT=${VERDICT_MCP_PORT:-$DEFAULT_MCP_PORT}
BASE=${VERDICT_GRPC_BASE_PORT:-$DEFAULT_GRPC_BASE_PORT}
WORKERS=${VERDICT_EVALUATION_WORKERS:-1}
HOST=127.0.0.1

# The order of `up`; `down` goes backwards.
SERVICES=(policy identity)
for ((i = 1; i <= WORKERS; i++)); do SERVICES+=("evaluation-$i"); done
SERVICES+=(compliance webhooks integrations gateway mcp)

log() { echo "stack: $*" >&2; }

# A process that was killed stays in the table as a zombie until something reaps it (its parent
# is gone: whatever adopted it reaps when it gets round to it), and kill -0 still succeeds then.
pid_alive() {
  kill -0 "$1" 2>/dev/null || return 1
  case "$(ps -o stat= -p "$1" 2>/dev/null)" in Z*) return 1 ;; esac
}
alive() { [ -f "$STACK/$1.pid" ] && pid_alive "$(cat "$STACK/$1.pid")"; }

infra_up() {
  # A Kafka or database given by the caller is theirs to run; otherwise start the local ones
  # (deploy/local) and remember it, so that `down` stops only what `up` started.
  # Their output goes to our stderr through a file (not `tee /dev/stderr`, which cannot be opened
  # when stderr is a socket, as under a process manager or a test runner).
  if [ -z "${VERDICT_KAFKA_BROKERS:-}" ]; then
    bash deploy/local/kafka.sh status >/dev/null 2>&1 || touch "$STACK/kafka.started"
    bash deploy/local/kafka.sh start | tee "$STACK/kafka.start.out" >&2
    VERDICT_KAFKA_BROKERS=$(sed -n 's/^VERDICT_KAFKA_BROKERS=//p' "$STACK/kafka.start.out" | tail -1)
    VERDICT_KAFKA_BROKERS=${VERDICT_KAFKA_BROKERS:-127.0.0.1:${VERDICT_KAFKA_PORT:-19092}}
  fi
  if [ -z "${VERDICT_MONGODB_URI:-}" ]; then
    bash deploy/local/mongo.sh status >/dev/null 2>&1 || touch "$STACK/mongo.started"
    bash deploy/local/mongo.sh start | tee "$STACK/mongo.start.out" >&2
    VERDICT_MONGODB_URI=$(sed -n 's/^VERDICT_MONGODB_URI=//p' "$STACK/mongo.start.out" | tail -1)
    VERDICT_MONGODB_URI=${VERDICT_MONGODB_URI:-mongodb://127.0.0.1:${VERDICT_MONGODB_PORT:-27018}/verdict}
  fi
  export VERDICT_KAFKA_BROKERS VERDICT_MONGODB_URI
}

start_one() {
  local name=$1 bin env=()
  if alive "$name"; then
    log "$name already running (pid $(cat "$STACK/$name.pid"))"
    return
  fi
  case $name in
    policy) bin=services/policy/dist/bin.js; env=(VERDICT_GRPC_PORT=$((BASE + OFFSET_POLICY))) ;;
    identity) bin=services/identity/dist/bin.js; env=(VERDICT_GRPC_PORT=$((BASE + OFFSET_IDENTITY))) ;;
    evaluation-*)
      local n=${name#evaluation-}
      bin=services/evaluation/dist/bin.js
      env=(VERDICT_GRPC_PORT=$([ "$n" = 1 ] && echo $((BASE + OFFSET_EVALUATION)) || echo $((BASE + OFFSET_EXTRA_EVALUATION + n))))
      ;;
    compliance) bin=services/compliance/dist/bin.js; env=(VERDICT_GRPC_PORT=$((BASE + OFFSET_COMPLIANCE))) ;;
    webhooks) bin=services/webhooks/dist/bin.js; env=(VERDICT_GRPC_PORT=$((BASE + OFFSET_WEBHOOKS))) ;;
    integrations) bin=services/integrations/dist/bin.js; env=(VERDICT_GRPC_PORT=$((BASE + OFFSET_INTEGRATIONS))) ;;
    gateway) bin=services/gateway/dist/bin.js; env=(VERDICT_HTTP_PORT=$HTTP_PORT) ;;
    mcp) bin=services/mcp/dist/bin.js; env=(VERDICT_MCP_PORT=$MCP_PORT VERDICT_MCP_HOST=$HOST VERDICT_API_URL=http://$HOST:$HTTP_PORT) ;;
  esac
  [ -f "$bin" ] || { log "$bin is missing: run bash scripts/install.sh first"; exit 1; }
  env "${env[@]}" \
    VERDICT_GRPC_HOST=$HOST \
    VERDICT_IDENTITY_ADDRESS=$HOST:$((BASE + OFFSET_IDENTITY)) VERDICT_POLICY_ADDRESS=$HOST:$((BASE + OFFSET_POLICY)) VERDICT_EVALUATION_ADDRESS=$HOST:$((BASE + OFFSET_EVALUATION)) \
    VERDICT_COMPLIANCE_ADDRESS=$HOST:$((BASE + OFFSET_COMPLIANCE)) VERDICT_WEBHOOKS_ADDRESS=$HOST:$((BASE + OFFSET_WEBHOOKS)) VERDICT_INTEGRATIONS_ADDRESS=$HOST:$((BASE + OFFSET_INTEGRATIONS)) VERDICT_PUBLIC_URL=${VERDICT_PUBLIC_URL:-http://localhost:$HTTP_PORT} \
    nohup node "$ROOT/$bin" >>"$STACK/$name.log" 2>&1 </dev/null &
  echo $! >"$STACK/$name.pid"
  log "$name started (pid $!, log $STACK/$name.log)"
  # Each service's ready line before the next one starts: identity needs policy, and so on.
  for _ in $(seq 1 240); do
    if grep -q "\"msg\":\"${name%-*} ready\"" "$STACK/$name.log" 2>/dev/null; then return; fi
    if ! alive "$name"; then
      log "$name exited; the end of its log:"
      tail -20 "$STACK/$name.log" >&2
      exit 1
    fi
    sleep 0.5
  done
  log "$name did not get ready in 120 s"
  exit 1
}

up() {
  mkdir -p "$STACK"
  infra_up
  for s in "${SERVICES[@]}"; do start_one "$s"; done
  # The operator's key, when identity generated it on its first start (shown once). Identity
  # prints nothing when VERDICT_BOOTSTRAP_API_KEY is set or the store already has a key: finding
  # no key is the normal case, not a failure (set -e and pipefail would make it one).
  local key
  key=$( (grep -h -A2 "created the instance operator's API key" "$STACK/identity.log" 2>/dev/null || true) | grep -o 'vdt_key_[A-Za-z0-9_]*' | tail -1 || true)
  if [ -n "$key" ] && [ ! -f "$STACK/key.shown" ]; then
    log "instance operator's API key (shown once): $key"
    touch "$STACK/key.shown"
  fi
  # Ready, not just alive: /v1/health answers as soon as the gateway listens, while its gRPC
  # channels to identity and the rest may still be connecting (a request then got a 503).
  # /v1/health/ready asks every service's health over those very channels.
  local code
  for _ in $(seq 1 240); do
    code=$(curl -s -o /dev/null -w '%{http_code}' "http://$HOST:$HTTP_PORT/v1/health/ready" || true)
    if [ "$code" = 200 ]; then
      log "Verdict is healthy on http://localhost:$HTTP_PORT/v1 (MCP tool server: http://localhost:$MCP_PORT/mcp)"
      return
    fi
    sleep 0.5
  done
  log "the gateway did not answer GET /v1/health/ready with 200 in 120 s (last: $code):"
  curl -s "http://$HOST:$HTTP_PORT/v1/health/ready" >&2 || true
  exit 1
}

stop_pid_file() {
  local name=$1 file=$STACK/$1.pid pid
  [ -f "$file" ] || return 0
  pid=$(cat "$file")
  if pid_alive "$pid"; then
    kill -TERM "$pid"
    for _ in $(seq 1 60); do pid_alive "$pid" || break; sleep 0.5; done
    if pid_alive "$pid"; then
      log "$name did not stop in 30 s; killing it"
      kill -KILL "$pid" 2>/dev/null || true
    fi
    log "$name stopped"
  fi
  rm -f "$file"
}

down() {
  [ -d "$STACK" ] || return 0
  # Every evaluation worker a previous `up` started, whatever VERDICT_EVALUATION_WORKERS is now.
  local names=(mcp gateway integrations webhooks compliance) f
  for f in "$STACK"/evaluation-*.pid; do [ -e "$f" ] && names+=("$(basename "$f" .pid)"); done
  names+=(identity policy)
  for s in "${names[@]}"; do stop_pid_file "$s"; done
  if [ -f "$STACK/mongo.started" ]; then bash deploy/local/mongo.sh stop >&2; rm -f "$STACK/mongo.started"; fi
  if [ -f "$STACK/kafka.started" ]; then bash deploy/local/kafka.sh stop >&2; rm -f "$STACK/kafka.started"; fi
}

status() {
  local rc=0 f name
  for f in "$STACK"/*.pid; do
    [ -e "$f" ] || continue
    name=$(basename "$f" .pid)
    if alive "$name"; then echo "$name: running (pid $(cat "$f"))"; else echo "$name: not running"; rc=1; fi
  done
  case "$(curl -s -o /dev/null -w '%{http_code}' "http://$HOST:$HTTP_PORT/v1/health/ready" || true)" in
    200) echo "gateway: healthy on :$HTTP_PORT" ;;
    503) echo "gateway: answering on :$HTTP_PORT but not ready (a service it needs does not answer)"; rc=1 ;;
    *) echo "gateway: not answering on :$HTTP_PORT"; rc=1 ;;
  esac
  return $rc
}

case "${1:-}" in
  up) up ;;
  down) down ;;
  status) status ;;
  *) echo "usage: $0 up|down|status" >&2; exit 2 ;;
esac
