# Apache Kafka (KRaft, one node) for the chart's devServices.kafka: tests and evaluation only.
# Context: a directory holding libs/ (the jars deploy/local/kafka.sh resolves from Maven Central).
ARG BASE=debian:bookworm-slim
FROM ${BASE}
RUN apt-get update && apt-get install -y --no-install-recommends openjdk-17-jre-headless \
 && apt-get clean && rm -rf /var/lib/apt/lists/* \
 && groupadd --system --gid 10001 kafka && useradd --system --uid 10001 --gid kafka --no-create-home --home-dir /nonexistent kafka \
 && mkdir -p /var/lib/kafka && chown kafka:kafka /var/lib/kafka
COPY libs /opt/kafka/libs
USER 10001:10001
EXPOSE 9092 9093
CMD ["java", "-cp", "/opt/kafka/libs/*", "kafka.Kafka", "/etc/kafka/server.properties"]
