import { describe, expect, it } from "@jest/globals";
import { ConfigError } from "@verdict/kit";
import { readConfig } from "./config.js";

describe("all-in-one configuration: MongoDB and Kafka", () => {
  it("uses the embedded adapters when the variables are unset or empty", () => {
    const c = readConfig({ VERDICT_MONGODB_URI: "", VERDICT_KAFKA_BROKERS: "" });
    expect(c.VERDICT_MONGODB_URI).toBeUndefined();
    expect(c.VERDICT_KAFKA_BROKERS).toBeUndefined();
    expect(c.VERDICT_KAFKA_TOPIC_PARTITIONS).toBe(3);
    expect(c.VERDICT_KAFKA_REPLICATION_FACTOR).toBe(1);
  });

  it("takes a MongoDB URI, a database, brokers, TLS and SASL", () => {
    const c = readConfig({
      VERDICT_MONGODB_URI: "mongodb+srv://user:pw@cluster.example.net/?retryWrites=true",
      VERDICT_MONGODB_DATABASE: "verdict_prod",
      VERDICT_KAFKA_BROKERS: "kafka-0.kafka:9092, kafka-1.kafka:9092,[::1]:9093",
      VERDICT_KAFKA_SSL: "true",
      VERDICT_KAFKA_SASL_MECHANISM: "scram-sha-512",
      VERDICT_KAFKA_SASL_USERNAME: "verdict",
      VERDICT_KAFKA_SASL_PASSWORD: "s3cret",
      VERDICT_KAFKA_TOPIC_PARTITIONS: "12",
      VERDICT_KAFKA_REPLICATION_FACTOR: "3",
    });
    expect(c).toMatchObject({
      VERDICT_MONGODB_DATABASE: "verdict_prod",
      VERDICT_KAFKA_SSL: true,
      VERDICT_KAFKA_SASL_MECHANISM: "scram-sha-512",
      VERDICT_KAFKA_TOPIC_PARTITIONS: 12,
    });
  });

  it("names every bad variable at once", () => {
    const bad = () =>
      readConfig({
        VERDICT_MONGODB_URI: "postgres://localhost/db",
        VERDICT_MONGODB_DATABASE: "has.dot",
        VERDICT_KAFKA_BROKERS: "localhost",
        VERDICT_KAFKA_SASL_MECHANISM: "plain",
        VERDICT_KAFKA_REPLICATION_FACTOR: "0",
        VERDICT_KAFKA_TOPIC_PREFIX: "no spaces",
      });
    expect(bad).toThrow(ConfigError);
    const message = (() => {
      try {
        bad();
      } catch (err) {
        return (err as Error).message;
      }
      return "";
    })();
    for (const v of [
      "VERDICT_MONGODB_URI",
      "VERDICT_MONGODB_DATABASE",
      "VERDICT_KAFKA_BROKERS",
      "VERDICT_KAFKA_REPLICATION_FACTOR",
      "VERDICT_KAFKA_TOPIC_PREFIX",
    ]) {
      expect(message).toContain(v);
    }
  });

  it("asks for the SASL username and password when a mechanism is set", () => {
    expect(() => readConfig({ VERDICT_KAFKA_SASL_MECHANISM: "plain", VERDICT_KAFKA_SASL_USERNAME: "u" })).toThrow(
      /VERDICT_KAFKA_SASL_PASSWORD: is required/,
    );
  });
});
