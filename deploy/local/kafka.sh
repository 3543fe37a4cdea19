#!/usr/bin/env bash
# Apache Kafka 4.x (KRaft, one combined broker+controller node) as a local process, for tests
# and development. No container engine, no root: the broker's jars come from Maven Central
# (resolved by `mvn` from a generated pom) and run on the machine's Java (17+).
#
#   deploy/local/kafka.sh install   fetch the jars into the cache (skipped when present)
#   deploy/local/kafka.sh start     install, format storage once, start, wait until it serves
#   deploy/local/kafka.sh stop      stop the broker this script started (by its PID file)
#   deploy/local/kafka.sh status    say whether it runs, and where
#
# Environment: VERDICT_KAFKA_PORT (client listener, default 19092), VERDICT_KAFKA_CONTROLLER_PORT
# (default client port + 1), VERDICT_LOCAL_RUN_DIR (PID file, logs, data; default
# deploy/local/.run/kafka), VERDICT_LOCAL_CACHE (jars; default ~/.cache/verdict-local, outside
# the clone so that fresh clones on the same machine reuse it),
# KAFKA_VERSION (default below), KAFKA_HEAP_OPTS (default -Xms256m -Xmx512m).
# On start it prints the line `VERDICT_KAFKA_BROKERS=127.0.0.1:<port>`.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)

# 4.4.0 is on Maven Central without all of its modules (kafka-tools-api is missing), so the
# newest complete 4.x release is pinned.
KAFKA_VERSION=${KAFKA_VERSION:-4.3.1}
LOG4J_VERSION=2.24.3
cache=${VERDICT_LOCAL_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/verdict-local}
run=${VERDICT_LOCAL_RUN_DIR:-$here/.run}/kafka
port=${VERDICT_KAFKA_PORT:-19092}
cport=${VERDICT_KAFKA_CONTROLLER_PORT:-$((port + 1))}
libs="$cache/kafka-$KAFKA_VERSION/libs"
pidfile="$run/kafka.pid"
# shellcheck source=process.sh
. "$here/process.sh"
log="$run/kafka.log"

need() { command -v "$1" >/dev/null 2>&1 || { echo "kafka.sh: '$1' is required ($2)" >&2; exit 1; }; }

java_ok() {
  need java "install a Java 17+ runtime, e.g. apt-get install openjdk-17-jre-headless"
  local v
  v=$(java -XshowSettings:properties -version 2>&1 | awk -F'= ' '/java.specification.version/ {print $2}')
  [ "${v%%.*}" -ge 17 ] || { echo "kafka.sh: Kafka 4.x needs Java 17 or newer (found $v)" >&2; exit 1; }
}

install() {
  if [ -f "$libs/.complete" ]; then return 0; fi
  need mvn "apt-get install maven"
  java_ok
  echo "==> kafka: fetching Apache Kafka $KAFKA_VERSION from Maven Central"
  local work
  work=$(mktemp -d)
  cat >"$work/pom.xml" <<POM
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>verdict.local</groupId><artifactId>kafka-runtime</artifactId><version>1</version><packaging>pom</packaging>
  <dependencies>
    <dependency><groupId>org.apache.kafka</groupId><artifactId>kafka_2.13</artifactId><version>$KAFKA_VERSION</version></dependency>
    <dependency><groupId>org.apache.logging.log4j</groupId><artifactId>log4j-slf4j-impl</artifactId><version>$LOG4J_VERSION</version></dependency>
    <dependency><groupId>org.apache.logging.log4j</groupId><artifactId>log4j-core</artifactId><version>$LOG4J_VERSION</version></dependency>
  </dependencies>
</project>
POM
  rm -rf "$libs"
  mkdir -p "$libs"
  mvn -q -B -Dstyle.color=never -f "$work/pom.xml" dependency:copy-dependencies -DincludeScope=runtime -DoutputDirectory="$libs"
  rm -rf "$work"
  touch "$libs/.complete"
}


start() {
  install
  mkdir -p "$run"
  if running; then
    echo "==> kafka: already running (pid $(cat "$pidfile"))"
    echo "VERDICT_KAFKA_BROKERS=$(cat "$run/brokers")"
    return 0
  fi
  for p in "$port" "$cport"; do
    if port_open "$p"; then echo "kafka.sh: port $p is taken; set VERDICT_KAFKA_PORT to a free port" >&2; exit 1; fi
  done
  java_ok
  local data="$run/data"
  cat >"$run/server.properties" <<PROPS
process.roles=broker,controller
node.id=1
controller.quorum.voters=1@127.0.0.1:$cport
listeners=PLAINTEXT://127.0.0.1:$port,CONTROLLER://127.0.0.1:$cport
advertised.listeners=PLAINTEXT://127.0.0.1:$port
controller.listener.names=CONTROLLER
inter.broker.listener.name=PLAINTEXT
listener.security.protocol.map=CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT
log.dirs=$data
num.partitions=1
auto.create.topics.enable=false
offsets.topic.replication.factor=1
offsets.topic.num.partitions=10
transaction.state.log.replication.factor=1
transaction.state.log.min.isr=1
share.coordinator.state.topic.replication.factor=1
share.coordinator.state.topic.min.isr=1
group.initial.rebalance.delay.ms=0
log.retention.hours=24
PROPS
  cat >"$run/log4j2.properties" <<LOG
status = error
appender.out.type = Console
appender.out.name = OUT
appender.out.layout.type = PatternLayout
appender.out.layout.pattern = [%d] %p %m (%c)%n
rootLogger.level = INFO
rootLogger.appenderRef.out.ref = OUT
logger.kafka.name = kafka
logger.kafka.level = WARN
logger.apache.name = org.apache.kafka
logger.apache.level = WARN
LOG
  local cp="$libs/*"
  # The storage is formatted once (KRaft needs a cluster id); a restart keeps the data.
  if [ ! -f "$data/meta.properties" ]; then
    local cluster_id
    cluster_id=$(java -cp "$cp" kafka.tools.StorageTool random-uuid 2>/dev/null | tail -1)
    java -Dlog4j2.configurationFile="$run/log4j2.properties" -cp "$cp" kafka.tools.StorageTool format \
      -t "$cluster_id" -c "$run/server.properties" >"$run/format.log" 2>&1 || { cat "$run/format.log" >&2; exit 1; }
  fi
  echo "==> kafka: starting Apache Kafka $KAFKA_VERSION on 127.0.0.1:$port (controller $cport)"
  # shellcheck disable=SC2086
  nohup java ${KAFKA_HEAP_OPTS:--Xms256m -Xmx512m} -XX:+UseG1GC -XX:MaxGCPauseMillis=20 -Djava.awt.headless=true \
    -Dlog4j2.configurationFile="$run/log4j2.properties" -cp "$cp" kafka.Kafka "$run/server.properties" \
    >"$log" 2>&1 </dev/null &
  echo $! >"$pidfile"
  echo "127.0.0.1:$port" >"$run/brokers"
  for _ in $(seq 1 240); do
    if ! running; then echo "kafka.sh: the broker exited; its log:" >&2; tail -50 "$log" >&2; rm -f "$pidfile"; exit 1; fi
    if port_open "$port"; then
      echo "==> kafka: ready"
      echo "VERDICT_KAFKA_BROKERS=127.0.0.1:$port"
      return 0
    fi
    sleep 0.5
  done
  echo "kafka.sh: the broker did not open port $port in 120 s; its log:" >&2
  tail -50 "$log" >&2
  stop
  exit 1
}

stop() { stop_process kafka 30; }

status() {
  if running; then echo "kafka: running (pid $(cat "$pidfile")), VERDICT_KAFKA_BROKERS=$(cat "$run/brokers")"
  else echo "kafka: not running"; return 3; fi
}

case "${1:-}" in
  install) install ;;
  start) start ;;
  stop) stop ;;
  status) status ;;
  *) echo "usage: $0 install|start|stop|status" >&2; exit 2 ;;
esac
