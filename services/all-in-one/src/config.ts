// All-in-one configuration, from environment variables, validated at start-up.
import { resolve } from "node:path";
import { z } from "zod";
import { boolVar, loadConfig, portVar } from "@verdict/kit";
import { gatewayHttpConfig } from "@verdict/gateway";
import { identityConfig, parseKey } from "@verdict/identity";
import { webhookConfig } from "@verdict/webhooks";
import { policyBudgetConfig } from "@verdict/policy";

const positiveInt = (fallback: number) => z.coerce.number().int().positive().default(fallback);
/** An optional string variable; empty counts as unset. */
const optionalString = () => z.string().optional().transform((v) => (v === "" ? undefined : v));
const BROKER = /^[A-Za-z0-9.-]+:\d{1,5}$|^\[[0-9A-Fa-f:]+\]:\d{1,5}$/;

export const configSchema = z.object({
  ...webhookConfig.shape,
  ...policyBudgetConfig.shape,
  ...gatewayHttpConfig.shape,
  ...identityConfig.shape,
  VERDICT_HTTP_PORT: portVar(8080),
  VERDICT_HTTP_HOST: z.string().min(1).default("0.0.0.0"),
  VERDICT_DATA_DIR: z.string().min(1).default("./data"),
  VERDICT_BOOTSTRAP_API_KEY: z
    .string()
    .optional()
    .refine((v) => v === undefined || v === "" || parseKey(v).ok, {
      message: "must be a Verdict key (vdt_key_<prod|test>_ + 32 base62 characters + 6-character checksum)",
    }),
  VERDICT_GRPC_HOST: z.string().min(1).default("127.0.0.1"),
  /** 0: each service takes a free loopback port. N: identity N, policy N+1, evaluation N+2, compliance N+3, webhooks N+4. */
  VERDICT_GRPC_BASE_PORT: portVar(0),
  VERDICT_MAX_BODY_BYTES: positiveInt(32 * 1024 * 1024),
  VERDICT_AUTH_CACHE_TTL_MS: z.coerce.number().int().min(0).default(30_000),
  VERDICT_RATE_LIMIT_PER_MINUTE: positiveInt(1_000),
  VERDICT_RATE_LIMIT_PER_HOUR: positiveInt(20_000),
  VERDICT_RATE_LIMIT_PER_DAY: positiveInt(240_000),
  VERDICT_SHUTDOWN_GRACE_MS: positiveInt(15_000),
  /** Evaluations of at least this many files, or bytes of content, run asynchronously. */
  VERDICT_ASYNC_MIN_FILES: positiveInt(200),
  VERDICT_ASYNC_MIN_BYTES: positiveInt(4 * 1024 * 1024),
  /** Worker threads that scan files (and compile patterns); unset: one per core but one. */
  VERDICT_SCAN_WORKERS: z.coerce.number().int().positive().max(256).optional(),
  VERDICT_SCAN_THREADS_PER_ORG: z.coerce.number().int().positive().max(256).optional(),
  /** A synchronous evaluation fails with EVALUATION_TIMEOUT after this long. */
  VERDICT_SCAN_TIMEOUT_MS: positiveInt(30_000),
  /** A queued evaluation fails (status failed) when its scan runs longer than this. */
  VERDICT_ASYNC_SCAN_TIMEOUT_MS: positiveInt(300_000),
  /** Synchronous evaluations of one organization running or waiting at once; more answer 429. */
  VERDICT_ORG_MAX_EVALUATIONS_IN_FLIGHT: positiveInt(8),
  /** Public base URL of the API, e.g. https://verdict.example.com (links in reports); unset: the request's host. */
  VERDICT_PUBLIC_URL: z.url().optional(),
  /** HMAC key of report download links; unset: generated once and kept in the data dir. */
  VERDICT_REPORT_SIGNING_KEY: z.string().min(32).optional(),
  /** How long a report download link stays valid. */
  VERDICT_REPORT_LINK_TTL_SECONDS: positiveInt(3600),
  /** Worker threads that render report files (PDF, OSCAL). */
  VERDICT_REPORT_WORKERS: positiveInt(1),
  /** A report still generating after this long is failed (its generation was cut short). */
  VERDICT_REPORT_TIMEOUT_MS: z.coerce.number().int().min(100).default(600_000),
  VERDICT_LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  // MongoDB and Kafka: when unset, the embedded store (SQLite under VERDICT_DATA_DIR) and the
  // in-process bus are used.
  VERDICT_MONGODB_URI: optionalString().refine((v) => v === undefined || /^mongodb(\+srv)?:\/\/\S+$/.test(v), {
    message: "must be a MongoDB connection string (mongodb:// or mongodb+srv://)",
  }),
  VERDICT_MONGODB_DATABASE: optionalString().refine((v) => v === undefined || /^[^/\\. "$*<>:|?]{1,63}$/.test(v), {
    message: "must be a MongoDB database name (1-63 characters, none of / \\ . space \" $ * < > : | ?)",
  }),
  VERDICT_KAFKA_BROKERS: optionalString().refine((v) => v === undefined || v.split(",").every((b) => BROKER.test(b.trim())), {
    message: "must be a comma-separated list of host:port",
  }),
  VERDICT_KAFKA_CLIENT_ID: z.string().min(1).default("verdict"),
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
  /** Prepended to topic names, so deployments (or test runs) can share one cluster. */
  VERDICT_KAFKA_TOPIC_PREFIX: z.string().regex(/^[A-Za-z0-9._-]*$/, "may hold only letters, digits, '.', '_' and '-'").default(""),
  VERDICT_KAFKA_REPLICATION_FACTOR: positiveInt(1),
}).superRefine((c, ctx) => {
  if (c.VERDICT_KAFKA_SASL_MECHANISM && (!c.VERDICT_KAFKA_SASL_USERNAME || !c.VERDICT_KAFKA_SASL_PASSWORD)) {
    for (const path of ["VERDICT_KAFKA_SASL_USERNAME", "VERDICT_KAFKA_SASL_PASSWORD"] as const) {
      if (!c[path]) ctx.addIssue({ code: "custom", path: [path], message: "is required when VERDICT_KAFKA_SASL_MECHANISM is set" });
    }
  }
});

export type Config = z.infer<typeof configSchema> & { dataDir: string };

export function readConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const c = loadConfig(configSchema, env);
  return { ...c, dataDir: resolve(c.VERDICT_DATA_DIR), VERDICT_BOOTSTRAP_API_KEY: c.VERDICT_BOOTSTRAP_API_KEY || undefined };
}
