#!/usr/bin/env bash
# Writes the broker's configuration from the environment into the data volume, formats the
# KRaft storage once (a restart keeps topics and offsets), then runs the broker as PID 1's child
# (exec: SIGTERM reaches the JVM, which shuts down cleanly).
#   KAFKA_PORT                  client listener inside the container (default 9092)
#   KAFKA_ADVERTISED_LISTENER   host:port clients are told to use (default localhost:KAFKA_PORT)
#   KAFKA_CONTROLLER_PORT       KRaft controller listener, loopback only (default 9093)
#   KAFKA_HEAP_OPTS             JVM heap (default -Xms256m -Xmx512m)
set -euo pipefail
port=${KAFKA_PORT:-9092}
cport=${KAFKA_CONTROLLER_PORT:-9093}
advertised=${KAFKA_ADVERTISED_LISTENER:-localhost:$port}
data=/var/lib/kafka
conf="$data/config"
mkdir -p "$conf" "$data/logs"
cat >"$conf/server.properties" <<PROPS
process.roles=broker,controller
node.id=1
controller.quorum.voters=1@127.0.0.1:$cport
listeners=PLAINTEXT://0.0.0.0:$port,CONTROLLER://127.0.0.1:$cport
advertised.listeners=PLAINTEXT://$advertised
controller.listener.names=CONTROLLER
inter.broker.listener.name=PLAINTEXT
listener.security.protocol.map=CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT
log.dirs=$data/logs
num.partitions=1
auto.create.topics.enable=false
offsets.topic.replication.factor=1
offsets.topic.num.partitions=10
transaction.state.log.replication.factor=1
transaction.state.log.min.isr=1
share.coordinator.state.topic.replication.factor=1
share.coordinator.state.topic.min.isr=1
group.initial.rebalance.delay.ms=0
log.retention.hours=${KAFKA_LOG_RETENTION_HOURS:-168}
PROPS
# Warnings only, plus the one line that says the broker serves ("Kafka Server started").
cat >"$conf/log4j2.properties" <<LOG
status = error
appender.out.type = Console
appender.out.name = OUT
appender.out.layout.type = PatternLayout
appender.out.layout.pattern = [%d] %p %m (%c)%n
rootLogger.level = WARN
rootLogger.appenderRef.out.ref = OUT
logger.started.name = kafka.server.KafkaRaftServer
logger.started.level = INFO
LOG
# -XX:-UsePerfData: the JVM writes nothing to /tmp (read-only root filesystems).
java_opts=(-XX:-UsePerfData -Djava.awt.headless=true -Dlog4j2.configurationFile="$conf/log4j2.properties" -cp "/opt/kafka/libs/*")
if [ ! -f "$data/logs/meta.properties" ]; then
  cluster_id=$(java "${java_opts[@]}" kafka.tools.StorageTool random-uuid 2>/dev/null | tail -1)
  java "${java_opts[@]}" kafka.tools.StorageTool format -t "$cluster_id" -c "$conf/server.properties" >/dev/null
fi
# shellcheck disable=SC2086
exec java ${KAFKA_HEAP_OPTS:--Xms256m -Xmx512m} -XX:+UseG1GC -XX:MaxGCPauseMillis=20 "${java_opts[@]}" kafka.Kafka "$conf/server.properties"
