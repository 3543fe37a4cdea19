// All-in-one configuration, from environment variables, validated at start-up.
import { resolve } from "node:path";
import { z } from "zod";
import { boolVar, loadConfig, portVar } from "@verdict/kit";
import { parseKey } from "@verdict/identity";
import { parseMasterKey, parseRetrySchedule } from "@verdict/webhooks";

const positiveInt = (fallback: number) => z.coerce.number().int().positive().default(fallback);

export const configSchema = z.object({
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
  /** 0: each service takes a free loopback port. N: identity N, policy N+1, evaluation N+2, webhooks N+4. */
  VERDICT_GRPC_BASE_PORT: portVar(0),
  VERDICT_MAX_BODY_BYTES: positiveInt(32 * 1024 * 1024),
  VERDICT_AUTH_CACHE_TTL_MS: z.coerce.number().int().min(0).default(30_000),
  VERDICT_TRUST_PROXY: boolVar(false),
  VERDICT_RATE_LIMIT_PER_MINUTE: positiveInt(1_000),
  VERDICT_RATE_LIMIT_PER_HOUR: positiveInt(20_000),
  VERDICT_RATE_LIMIT_PER_DAY: positiveInt(240_000),
  VERDICT_SHUTDOWN_GRACE_MS: positiveInt(15_000),
  /** Evaluations of at least this many files, or bytes of content, run asynchronously. */
  VERDICT_ASYNC_MIN_FILES: positiveInt(200),
  VERDICT_ASYNC_MIN_BYTES: positiveInt(4 * 1024 * 1024),
  /** base64 of 32 bytes sealing webhook secrets; unset: generated once into the data directory. */
  VERDICT_WEBHOOK_MASTER_KEY: z
    .string()
    .optional()
    .superRefine((v, ctx) => {
      if (!v) return;
      try {
        parseMasterKey(v);
      } catch (err) {
        ctx.addIssue({ code: "custom", message: `${(err as Error).message} (generate one with: openssl rand -base64 32)` });
      }
    }),
  /** Seconds before each webhook retry, comma-separated; unset: 5s … 24h over about three days. */
  VERDICT_WEBHOOK_RETRY_SCHEDULE: z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (!v) return undefined;
      try {
        return parseRetrySchedule(v);
      } catch (err) {
        ctx.addIssue({ code: "custom", message: (err as Error).message });
        return z.NEVER;
      }
    }),
  VERDICT_WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(10_000),
  VERDICT_WEBHOOK_ALLOW_HTTP: boolVar(false),
  VERDICT_WEBHOOK_ALLOW_PRIVATE: boolVar(false),
  /** Comma-separated host names (or *.suffix) webhooks may target; unset: any public host. */
  VERDICT_WEBHOOK_ALLOWED_HOSTS: z
    .string()
    .optional()
    .transform((v) => (v ? v.split(",").map((h) => h.trim()).filter(Boolean) : undefined)),
  VERDICT_LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
});

export type Config = z.infer<typeof configSchema> & { dataDir: string };

export function readConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const c = loadConfig(configSchema, env);
  return { ...c, dataDir: resolve(c.VERDICT_DATA_DIR), VERDICT_BOOTSTRAP_API_KEY: c.VERDICT_BOOTSTRAP_API_KEY || undefined };
}
