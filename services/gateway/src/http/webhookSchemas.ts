// The REST contract of webhooks: endpoints, the delivery log, and the messages receivers get
// (the OpenAPI document's top-level `webhooks` section).
import { z } from "zod";
import { ViolationSchema } from "../gen/evaluation.rest.js";

export const WEBHOOK_EVENTS = ["evaluation.completed", "policy.violation"] as const;
const ISO = z.string().meta({ format: "date-time" });

export const WebhookSchema = z
  .object({
    id: z.string().regex(/^wh_/),
    url: z.string(),
    events: z.array(z.enum(WEBHOOK_EVENTS)),
    status: z.enum(["active", "disabled"]).meta({
      description:
        "A disabled webhook gets no messages: it answered 410 Gone, or failed every attempt of a message's whole retry schedule (about three days by default)",
    }),
    disabled_reason: z.string().nullable(),
    disabled_at: ISO.nullable(),
    created_at: ISO,
    updated_at: ISO,
  })
  .meta({
    id: "Webhook",
    description: "A webhook endpoint. Its secret is shown once, when it is created, and never again.",
  });

export const WebhookListSchema = z.object({ webhooks: z.array(WebhookSchema) }).meta({ id: "WebhookList" });

export const CreateWebhookSchema = z
  .object({
    url: z
      .string()
      .min(1)
      .max(2048)
      .regex(/^https?:\/\/\S+$/i, { message: "url must be an absolute http(s) URL" })
      .meta({
        description:
          "https:// (http:// only where the instance allows it). Loopback, private, link-local and metadata addresses are refused.",
        examples: ["https://ci.example.com/hooks/verdict"],
      }),
    events: z.array(z.enum(WEBHOOK_EVENTS)).min(1).max(10),
    secret: z
      .string()
      .max(100)
      .regex(/^whsec_[A-Za-z0-9+/]+={0,2}$/, { message: "secret must have the Standard Webhooks form whsec_<base64>" })
      .optional()
      .meta({
        description: "Standard Webhooks form: whsec_ + base64 of 24 to 64 random bytes. Omit it to have one generated.",
      }),
  })
  .strict()
  .meta({ id: "CreateWebhook" });

export const UpdateWebhookSchema = z
  .object({
    url: CreateWebhookSchema.shape.url.optional(),
    events: CreateWebhookSchema.shape.events.optional(),
    status: z
      .enum(["active", "disabled"])
      .optional()
      .meta({ description: "active re-enables a disabled webhook; disabled stops its messages" }),
  })
  .strict()
  .meta({ id: "UpdateWebhook" });

export const CreatedWebhookSchema = WebhookSchema.extend({
  secret: z.string().meta({ description: "The signing secret (whsec_…). Shown once: store it now." }),
}).meta({ id: "CreatedWebhook" });

export const DeliveryAttemptSchema = z
  .object({
    attempt: z.number().int(),
    attempted_at: ISO,
    status_code: z.number().int().nullable().meta({ description: "null when no response arrived" }),
    latency_ms: z.number().int(),
    error: z
      .string()
      .nullable()
      .meta({ description: "Why no response arrived: refused (SSRF rules), timed out, connection failed" }),
    response_excerpt: z.string().nullable().meta({ description: "The first 1 KiB of the response body" }),
  })
  .meta({ id: "DeliveryAttempt" });

export const DeliverySchema = z
  .object({
    id: z.string().regex(/^msg_/).meta({ description: "The message id: the webhook-id header of every attempt" }),
    webhook_id: z.string(),
    event: z.enum([...WEBHOOK_EVENTS, "webhook.ping", "webhook.disabled"]),
    event_id: z.string().nullable(),
    status: z.enum(["pending", "succeeded", "failed"]),
    attempts: z.array(DeliveryAttemptSchema),
    next_attempt_at: ISO.nullable(),
    created_at: ISO,
    completed_at: ISO.nullable(),
  })
  .meta({ id: "Delivery", description: "One message to one webhook, with its attempts" });

export const DeliveryListSchema = z
  .object({
    deliveries: z.array(DeliverySchema),
    pagination: z.object({ next_cursor: z.string().nullable(), has_more: z.boolean() }),
  })
  .meta({ id: "DeliveryList" });

export const ListDeliveriesQuery = z
  .object({
    limit: z.coerce.number().int().min(1).max(100).default(20),
    cursor: z
      .string()
      .regex(/^msg_[0-9a-z]{26}$/, { message: "cursor must be a next_cursor returned by this API" })
      .optional(),
  })
  .strict();

export const DeliveryParams = z.object({
  webhook_id: z
    .string()
    .min(1)
    .max(128)
    .meta({ examples: ["wh_01jd0000000000000000000000"] }),
  delivery_id: z
    .string()
    .min(1)
    .max(128)
    .meta({ examples: ["msg_01jd0000000000000000000000"] }),
});

// ---------- the messages receivers get ----------

const SummarySchema = z.object({
  total_files: z.number().int(),
  total_violations: z.number().int(),
  errors: z.number().int(),
  warnings: z.number().int(),
  suppressed: z.number().int(),
  skipped_files: z.number().int(),
});

const envelope = <E extends string, D extends z.ZodType>(event: E, data: D, id: string, description: string) =>
  z
    .object({
      event: z.literal(event),
      data,
      id: z.string().regex(/^msg_/).meta({
        description: "Equals the webhook-id header; the same on every attempt, so receivers can drop duplicates",
      }),
      timestamp: ISO.meta({ description: "When the event happened (webhook-timestamp is the time of the attempt)" }),
    })
    .meta({ id, description });

export const EvaluationCompletedMessage = envelope(
  "evaluation.completed",
  z.object({
    organization_id: z.string(),
    evaluation_id: z.string().regex(/^eval_/),
    repository: z.string(),
    ref: z.string(),
    status: z.enum(["completed", "failed"]),
    passed: z.boolean().nullable(),
    completed_at: ISO,
    summary: SummarySchema,
    failure_reason: z.string().optional(),
  }),
  "EvaluationCompletedMessage",
  "An evaluation finished: its summary (fetch GET /v1/evaluations/{evaluation_id} for the violations)",
);

export const PolicyViolationMessage = envelope(
  "policy.violation",
  z.object({
    organization_id: z.string(),
    evaluation_id: z.string().regex(/^eval_/),
    repository: z.string(),
    violation: ViolationSchema,
  }),
  "PolicyViolationMessage",
  "A violation was found; one message per violation. The code_snippet keeps at most the first four characters of a secret.",
);

export const WebhookDisabledMessage = envelope(
  "webhook.disabled",
  z.object({
    organization_id: z.string(),
    webhook_id: z.string().regex(/^wh_/),
    url: z.string().meta({ description: "The disabled endpoint's origin" }),
    reason: z.string(),
    disabled_at: ISO,
  }),
  "WebhookDisabledMessage",
  "Another webhook of the organization was disabled. Sent to every other active webhook, whatever its events.",
);

export const WebhookPingMessage = envelope(
  "webhook.ping",
  z.object({ organization_id: z.string(), webhook_id: z.string().regex(/^wh_/), message: z.string() }),
  "WebhookPingMessage",
  "A test message, sent by POST /v1/webhooks/{webhook_id}/ping",
);

const SIGNATURE_HEADERS = {
  "webhook-id": {
    required: true,
    description: "Message id (msg_…), the same on every attempt",
    schema: { type: "string" },
  },
  "webhook-timestamp": {
    required: true,
    description: "Unix seconds of this attempt; reject messages older than a few minutes",
    schema: { type: "string" },
  },
  "webhook-signature": {
    required: true,
    description:
      "v1,<base64 HMAC-SHA256 of `<webhook-id>.<webhook-timestamp>.<body>` keyed with the base64-decoded secret after whsec_> (Standard Webhooks; verify with the standardwebhooks library)",
    schema: { type: "string" },
  },
};

/** The OpenAPI 3.1 `webhooks` section: what Verdict POSTs to a registered URL. */
export function webhooksSection(): Record<string, unknown> {
  const op = (event: string, component: string, summary: string) => ({
    post: {
      operationId: `webhook_${event.replace(".", "_")}`,
      summary,
      tags: ["Webhooks"],
      parameters: Object.entries(SIGNATURE_HEADERS).map(([name, h]) => ({ name, in: "header", ...h })),
      requestBody: {
        required: true,
        content: { "application/json": { schema: { $ref: `#/components/schemas/${component}` } } },
      },
      responses: {
        "2XX": {
          description:
            "Accepted. Anything else is retried (5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h, 24 h by default, ±20% jitter; Retry-After honoured); 410 disables the webhook; redirects are not followed.",
        },
      },
    },
  });
  return {
    "evaluation.completed": op("evaluation.completed", "EvaluationCompletedMessage", "An evaluation finished"),
    "policy.violation": op("policy.violation", "PolicyViolationMessage", "A policy violation was found"),
    "webhook.disabled": op(
      "webhook.disabled",
      "WebhookDisabledMessage",
      "Another webhook of the organization was disabled",
    ),
    "webhook.ping": op("webhook.ping", "WebhookPingMessage", "Test message"),
  };
}
