// The configuration schema every Verdict process starts from. Each service declares its own
// variables once, beside its code (services/<name>/src/config.ts); a standalone process
// (bin.ts) extends `processConfig` or `grpcServiceConfig` with them, and the all-in-one process
// composes them all (services/all-in-one/src/config.ts). Defaults come from their owners.
import { z } from "zod";
import { boolVar, loadConfig, portVar } from "@verdict/kit";
import type { BusConfig } from "@verdict/bus";
import { documentVariables } from "./configDoc.js";
import { DEFAULT_GRPC_PORTS } from "./ports.js";

/** A positive integer variable. */
export const positiveInt = (fallback: number) => z.coerce.number().int().positive().default(fallback);
/** An optional string variable; empty counts as unset. */
export const optionalString = () =>
  z
    .string()
    .optional()
    .transform((v) => (v === "" ? undefined : v));
const BROKER = /^[A-Za-z0-9.-]+:\d{1,5}$|^\[[0-9A-Fa-f:]+\]:\d{1,5}$/;

/** host:port of another service. */
export const addressVar = (fallback: string) =>
  z
    .string()
    .regex(/^[^\s:]+:\d{1,5}$/, "must be host:port")
    .default(fallback);

export const DEFAULT_ADDRESSES = {
  identity: `127.0.0.1:${DEFAULT_GRPC_PORTS.identity}`,
  policy: `127.0.0.1:${DEFAULT_GRPC_PORTS.policy}`,
  evaluation: `127.0.0.1:${DEFAULT_GRPC_PORTS.evaluation}`,
  compliance: `127.0.0.1:${DEFAULT_GRPC_PORTS.compliance}`,
  webhooks: `127.0.0.1:${DEFAULT_GRPC_PORTS.webhooks}`,
  integrations: `127.0.0.1:${DEFAULT_GRPC_PORTS.integrations}`,
} as const;

// Variables two services read for one purpose, declared once here so that they cannot drift.
/** Public base URL (scheme and host) of the API, e.g. https://verdict.example.com; unset: the request's host. */
export const publicUrlVar = () => z.url().optional();
/**
 * Evaluation requests of one organization in flight at once: the gateway refuses one more before
 * reading its body, and the evaluation service caps synchronous scans running or waiting.
 */
export const DEFAULT_ORG_MAX_EVALUATIONS_IN_FLIGHT = 8;
export const orgMaxEvaluationsInFlightVar = () => positiveInt(DEFAULT_ORG_MAX_EVALUATIONS_IN_FLIGHT);

/** The Store and Bus adapters (docs/configuration.md): unset, the embedded store and the in-process bus. */
export const adapterConfig = z.object({
  /** MongoDB (or FerretDB) connection string; unset: the embedded SQLite store in VERDICT_DATA_DIR. */
  VERDICT_MONGODB_URI: optionalString().refine((v) => v === undefined || /^mongodb(\+srv)?:\/\/\S+$/.test(v), {
    message: "must be a MongoDB connection string (mongodb:// or mongodb+srv://)",
  }),
  /** Database name; default: the URI's, else "verdict". */
  VERDICT_MONGODB_DATABASE: optionalString().refine((v) => v === undefined || /^[^/\\. "$*<>:|?]{1,63}$/.test(v), {
    message: 'must be a MongoDB database name (1-63 characters, none of / \\ . space " $ * < > : | ?)',
  }),
  /** Comma-separated Kafka brokers (host:port); unset: the in-process bus, which reaches only this process. */
  VERDICT_KAFKA_BROKERS: optionalString().refine(
    (v) => v === undefined || v.split(",").every((b) => BROKER.test(b.trim())),
    {
      message: "must be a comma-separated list of host:port",
    },
  ),
  /** Default: verdict-<service> (all-in-one: verdict). */
  VERDICT_KAFKA_CLIENT_ID: optionalString(),
  VERDICT_KAFKA_SSL: boolVar(false),
  /** A PEM bundle of CAs to trust for the brokers' certificates (implies TLS). */
  VERDICT_KAFKA_SSL_CA_FILE: optionalString(),
  VERDICT_KAFKA_SASL_MECHANISM: z
    .enum(["plain", "scram-sha-256", "scram-sha-512", ""])
    .optional()
    .transform((v) => (v === "" ? undefined : v)),
  VERDICT_KAFKA_SASL_USERNAME: optionalString(),
  VERDICT_KAFKA_SASL_PASSWORD: optionalString(),
  VERDICT_KAFKA_TOPIC_PARTITIONS: positiveInt(3),
  VERDICT_KAFKA_REPLICATION_FACTOR: positiveInt(1),
  /** Prepended to topic names, so deployments (or test stacks) can share one cluster. */
  VERDICT_KAFKA_TOPIC_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9._-]*$/, "may hold only letters, digits, '.', '_' and '-'")
    .default(""),
});

/** Variables every process reads. */
export const processConfig = z.object({
  VERDICT_LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  /** The embedded store's folder, when no MongoDB is configured. */
  VERDICT_DATA_DIR: z.string().min(1).default("./data"),
  VERDICT_SHUTDOWN_GRACE_MS: positiveInt(15_000),
  ...adapterConfig.shape,
});

export type ProcessConfig = z.infer<typeof processConfig>;

/** Variables of a process that serves gRPC. */
export const grpcServiceConfig = (defaultPort: number) =>
  processConfig.extend({
    VERDICT_GRPC_HOST: z.string().min(1).default("0.0.0.0"),
    VERDICT_GRPC_PORT: portVar(defaultPort),
    /** Serves Prometheus metrics at /metrics on this port (0: a free one); unset: not served. */
    VERDICT_METRICS_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  });

export type AdapterConfig = z.infer<typeof adapterConfig>;

/** Checks across variables, which a zod object cannot carry and still be extended. */
function crossChecks(c: Partial<AdapterConfig>, ctx: z.RefinementCtx): void {
  if (c.VERDICT_KAFKA_SASL_MECHANISM && (!c.VERDICT_KAFKA_SASL_USERNAME || !c.VERDICT_KAFKA_SASL_PASSWORD)) {
    for (const path of ["VERDICT_KAFKA_SASL_USERNAME", "VERDICT_KAFKA_SASL_PASSWORD"] as const) {
      if (!c[path])
        ctx.addIssue({ code: "custom", path: [path], message: "is required when VERDICT_KAFKA_SASL_MECHANISM is set" });
    }
  }
}

/** Reads a process's variables (its schema plus the cross-variable checks); throws ConfigError naming every bad one. */
export function readVariables<S extends typeof processConfig>(
  schema: S,
  env: NodeJS.ProcessEnv = process.env,
): z.infer<S> {
  return loadConfig(schema.superRefine(crossChecks), env);
}

/** The Bus options the adapter variables select. */
export function busOptions(config: AdapterConfig, clientId: string): BusConfig {
  const sasl = config.VERDICT_KAFKA_SASL_MECHANISM
    ? {
        mechanism: config.VERDICT_KAFKA_SASL_MECHANISM,
        username: config.VERDICT_KAFKA_SASL_USERNAME ?? "",
        password: config.VERDICT_KAFKA_SASL_PASSWORD ?? "",
      }
    : undefined;
  return {
    kafkaBrokers: config.VERDICT_KAFKA_BROKERS,
    clientId: config.VERDICT_KAFKA_CLIENT_ID ?? clientId,
    ssl: config.VERDICT_KAFKA_SSL,
    sslCaFile: config.VERDICT_KAFKA_SSL_CA_FILE,
    sasl,
    partitions: config.VERDICT_KAFKA_TOPIC_PARTITIONS,
    replicationFactor: config.VERDICT_KAFKA_REPLICATION_FACTOR,
    topicPrefix: config.VERDICT_KAFKA_TOPIC_PREFIX,
  };
}

documentVariables({
  VERDICT_LOG_LEVEL: "`fatal` … `trace`, or `silent`",
  VERDICT_DATA_DIR:
    "Where the embedded store keeps `verdict.db` (mode 0700, files 0600; one all-in-one process per directory)",
  VERDICT_SHUTDOWN_GRACE_MS: "On SIGTERM, how long in-flight requests may take before connections are cut",
  VERDICT_MONGODB_URI:
    "MongoDB connection string (`mongodb://` or `mongodb+srv://`, TLS and auth options in it); unset: the embedded store",
  VERDICT_MONGODB_DATABASE: {
    meaning: "Database holding every service's collections",
    default: "the URI's, else `verdict`",
  },
  VERDICT_KAFKA_BROKERS: "Comma-separated `host:port` list; unset: the in-process bus",
  VERDICT_KAFKA_CLIENT_ID: {
    meaning: "Kafka client id (broker logs, quotas)",
    default: "`verdict` (a standalone process: `verdict-<service>`)",
  },
  VERDICT_KAFKA_SSL: "TLS to the brokers, trusting the system CAs",
  VERDICT_KAFKA_SSL_CA_FILE: "PEM file of CAs to trust for the brokers (implies TLS)",
  VERDICT_KAFKA_SASL_MECHANISM:
    "`plain`, `scram-sha-256` or `scram-sha-512`; then `VERDICT_KAFKA_SASL_USERNAME` and `VERDICT_KAFKA_SASL_PASSWORD` are required",
  VERDICT_KAFKA_SASL_USERNAME: "SASL user name (required with `VERDICT_KAFKA_SASL_MECHANISM`)",
  VERDICT_KAFKA_SASL_PASSWORD: "SASL password (required with `VERDICT_KAFKA_SASL_MECHANISM`)",
  VERDICT_KAFKA_TOPIC_PARTITIONS: "Partitions of the topics Verdict creates at start-up",
  VERDICT_KAFKA_REPLICATION_FACTOR: "Their replication factor (use 3 on a production cluster)",
  VERDICT_KAFKA_TOPIC_PREFIX: "Prepended to every topic name, so several deployments can share one cluster",
  VERDICT_GRPC_HOST:
    "Address of the services' gRPC ports (all-in-one: loopback; a standalone service: where it listens)",
  VERDICT_GRPC_PORT:
    "A standalone service's gRPC port (identity / policy / evaluation / compliance / webhooks / integrations: 50051 / 50052 / 50053 / 50054 / 50055 / 50056)",
  VERDICT_METRICS_PORT:
    "Serves Prometheus metrics at `GET /metrics` on this port (0 picks a free one); unset: not served. Never on the API port (a standalone service serves it on `VERDICT_GRPC_HOST`)",
  VERDICT_IDENTITY_ADDRESS: "Where the identity service listens (`host:port`), for a standalone process that calls it",
  VERDICT_POLICY_ADDRESS: "Where the policy service listens (`host:port`), for a standalone process that calls it",
  VERDICT_EVALUATION_ADDRESS:
    "Where the evaluation service listens (`host:port`), for a standalone process that calls it",
  VERDICT_COMPLIANCE_ADDRESS:
    "Where the compliance service listens (`host:port`), for a standalone process that calls it",
  VERDICT_WEBHOOKS_ADDRESS: "Where the webhooks service listens (`host:port`), for a standalone process that calls it",
  VERDICT_INTEGRATIONS_ADDRESS:
    "Where the integrations service listens (`host:port`), for the gateway; unset: not deployed (the `/v1/integrations` routes and connecting a `gitea` repository answer 503; a `github` repository is stored by name, unverified)",
  VERDICT_PUBLIC_URL:
    "Public base URL (e.g. `https://verdict.example.com`) for report download links, OSCAL evidence links and the OAuth issuer (`<url>/auth`); unset: the request's host (links), `http://localhost:<port>` (OSCAL), and for the OAuth server only a request to localhost, 127.0.0.1 or [::1] on the listening port (any other Host: 403)",
  VERDICT_ORG_MAX_EVALUATIONS_IN_FLIGHT:
    '`POST /v1/evaluations` requests of one organization in flight at once (the gateway refuses one more before reading its body), and synchronous evaluations running or waiting for a scan thread (the evaluation service); one more answers 429 with `details.window: "concurrent"`',
});
