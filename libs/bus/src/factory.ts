// Chooses the Bus adapter from configuration: Kafka when brokers are configured, else the
// in-process bus.
import { readFileSync } from "node:fs";
import type { Logger } from "@verdict/kit";
import { KafkaBus, type KafkaSasl } from "./kafka.js";
import { InProcessBus } from "./memory.js";
import type { Bus } from "./port.js";

export interface BusConfig {
  /** Comma-separated host:port list (VERDICT_KAFKA_BROKERS); unset or empty: in-process. */
  kafkaBrokers?: string | undefined;
  clientId?: string | undefined;
  /** TLS to the brokers; caFile adds a CA bundle (PEM) to trust. */
  ssl?: boolean | undefined;
  sslCaFile?: string | undefined;
  sasl?: KafkaSasl | undefined;
  partitions?: number | undefined;
  /** Prepended to Kafka topic names (VERDICT_KAFKA_TOPIC_PREFIX). */
  topicPrefix?: string | undefined;
  replicationFactor?: number | undefined;
}

export async function createBus(config: BusConfig, logger: Logger): Promise<Bus> {
  const brokers = (config.kafkaBrokers ?? "")
    .split(",")
    .map((b) => b.trim())
    .filter(Boolean);
  if (!brokers.length) return new InProcessBus(logger);
  const ssl = config.sslCaFile ? { ca: [readFileSync(config.sslCaFile, "utf8")] } : config.ssl;
  return KafkaBus.connect({
    brokers,
    logger,
    ...(config.clientId ? { clientId: config.clientId } : {}),
    ...(ssl ? { ssl } : {}),
    ...(config.sasl ? { sasl: config.sasl } : {}),
    ...(config.partitions ? { partitions: config.partitions } : {}),
    ...(config.topicPrefix ? { topicPrefix: config.topicPrefix } : {}),
    ...(config.replicationFactor ? { replicationFactor: config.replicationFactor } : {}),
  });
}
