// The webhooks service's configuration variables, shared by the all-in-one process and the
// service's own entry point (distributed mode).
import { z } from "zod";
import { boolVar } from "@verdict/kit";
import { parseRetrySchedule } from "./domain/schedule.js";
import { parseMasterKey } from "./secretBox.js";

export const webhookConfig = z.object({
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
  /** Delivery attempts under way at once, in all; and per organization (fairness). */
  VERDICT_WEBHOOK_CONCURRENCY: z.coerce.number().int().min(1).max(1_000).default(8),
  VERDICT_WEBHOOK_ORG_CONCURRENCY: z.coerce.number().int().min(1).max(1_000).default(2),
  /** Webhooks one organization may register. */
  VERDICT_WEBHOOK_MAX_PER_ORG: z.coerce.number().int().min(1).max(10_000).default(20),
  VERDICT_WEBHOOK_ALLOW_HTTP: boolVar(false),
  VERDICT_WEBHOOK_ALLOW_PRIVATE: boolVar(false),
  /** Comma-separated host names (or *.suffix) webhooks may target; unset: any public host. */
  VERDICT_WEBHOOK_ALLOWED_HOSTS: z
    .string()
    .optional()
    .transform((v) => (v ? v.split(",").map((h) => h.trim()).filter(Boolean) : undefined)),
});

export type WebhookConfig = z.infer<typeof webhookConfig>;
