// The webhooks service's configuration variables, shared by the all-in-one process and the
// service's own entry point (distributed mode).
import { z } from "zod";
import { boolVar, masterKeyVar, resolveMasterKey, type Logger } from "@verdict/kit";
import { DEFAULT_GRPC_PORTS, grpcServiceConfig, documentVariables } from "@verdict/runtime";
import { DEFAULT_RETRY_SCHEDULE, parseRetrySchedule } from "./domain/schedule.js";
import { DEFAULT_MAX_PER_ORG, DEFAULT_TIMEOUT_MS, type WebhookServiceOptions } from "./main.js";

export const webhookConfig = z.object({
  /** base64 of 32 bytes sealing webhook secrets; unset: generated once into the data directory. */
  VERDICT_WEBHOOK_MASTER_KEY: masterKeyVar(),
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
  VERDICT_WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(DEFAULT_TIMEOUT_MS),
  /** Delivery attempts under way at once, in all; and per organization (fairness). */
  VERDICT_WEBHOOK_CONCURRENCY: z.coerce.number().int().min(1).max(1_000).default(8),
  VERDICT_WEBHOOK_ORG_CONCURRENCY: z.coerce.number().int().min(1).max(1_000).default(2),
  /** Webhooks one organization may register. */
  VERDICT_WEBHOOK_MAX_PER_ORG: z.coerce.number().int().min(1).max(10_000).default(DEFAULT_MAX_PER_ORG),
  VERDICT_WEBHOOK_ALLOW_HTTP: boolVar(false),
  VERDICT_WEBHOOK_ALLOW_PRIVATE: boolVar(false),
  /** Comma-separated host names (or *.suffix) webhooks may target; unset: any public host. */
  VERDICT_WEBHOOK_ALLOWED_HOSTS: z
    .string()
    .optional()
    .transform((v) =>
      v
        ? v
            .split(",")
            .map((h) => h.trim())
            .filter(Boolean)
        : undefined,
    ),
});

export type WebhookConfig = z.infer<typeof webhookConfig>;

/** The webhooks service as its own process (bin.ts). */
export const webhookProcessConfig = grpcServiceConfig(DEFAULT_GRPC_PORTS.webhooks).extend(webhookConfig.shape);

/**
 * The service options these variables set. Every replica needs the same master key: set
 * VERDICT_WEBHOOK_MASTER_KEY when they do not share a data directory.
 */
export function webhookOptions(
  c: WebhookConfig,
  dataDir: string,
  logger: Logger,
): Pick<
  WebhookServiceOptions,
  | "masterKey"
  | "retrySchedule"
  | "timeoutMs"
  | "concurrency"
  | "orgConcurrency"
  | "maxPerOrg"
  | "allowHttp"
  | "allowPrivate"
  | "allowedHosts"
> {
  return {
    masterKey: resolveMasterKey(c.VERDICT_WEBHOOK_MASTER_KEY, dataDir, logger),
    ...(c.VERDICT_WEBHOOK_RETRY_SCHEDULE ? { retrySchedule: c.VERDICT_WEBHOOK_RETRY_SCHEDULE } : {}),
    timeoutMs: c.VERDICT_WEBHOOK_TIMEOUT_MS,
    concurrency: c.VERDICT_WEBHOOK_CONCURRENCY,
    orgConcurrency: c.VERDICT_WEBHOOK_ORG_CONCURRENCY,
    maxPerOrg: c.VERDICT_WEBHOOK_MAX_PER_ORG,
    allowHttp: c.VERDICT_WEBHOOK_ALLOW_HTTP,
    allowPrivate: c.VERDICT_WEBHOOK_ALLOW_PRIVATE,
    ...(c.VERDICT_WEBHOOK_ALLOWED_HOSTS ? { allowedHosts: c.VERDICT_WEBHOOK_ALLOWED_HOSTS } : {}),
  };
}

documentVariables({
  VERDICT_WEBHOOK_MASTER_KEY:
    "base64 of 32 bytes; encrypts webhook secrets and (under a derived key) TOTP secrets (AES-256-GCM). Unset: generated on the first start into `VERDICT_DATA_DIR/webhook-master.key` (mode 0600)",
  VERDICT_WEBHOOK_RETRY_SCHEDULE: {
    meaning: "Seconds before each webhook retry (±20% jitter); the default is ten attempts over about 75 hours",
    default: `\`${DEFAULT_RETRY_SCHEDULE.join(",")}\``,
  },
  VERDICT_WEBHOOK_TIMEOUT_MS: "Deadline of one delivery attempt, connection to last byte",
  VERDICT_WEBHOOK_CONCURRENCY: "Webhook delivery attempts under way at once",
  VERDICT_WEBHOOK_ORG_CONCURRENCY:
    "Of the webhook delivery attempts under way, at most this many for one organization (one organization's unresponsive receiver cannot delay the others')",
  VERDICT_WEBHOOK_MAX_PER_ORG:
    "Webhooks one organization may register (one more: 422, field `url`, `MAX_SIZE_EXCEEDED`)",
  VERDICT_WEBHOOK_ALLOW_HTTP: "Accept `http://` webhook URLs (development)",
  VERDICT_WEBHOOK_ALLOW_PRIVATE:
    "Let webhooks reach loopback, private, link-local and metadata addresses (development and tests only)",
  VERDICT_WEBHOOK_ALLOWED_HOSTS:
    "Comma-separated host names (`ci.acme.com`, `*.acme.com`) webhooks may target; unset: any public host",
});
