// The messages webhook receivers get (the OpenAPI document's top-level `webhooks` section). The
// endpoints' and the delivery log's routes and schemas are generated from the proto
// (src/gen/webhooks.rest.ts).
import { z } from "zod";
import { AUDIT_EVENT_TYPES } from "@verdict/kit";
import { SummarySchema, ViolationSchema } from "../gen/evaluation.rest.js";

const ISO = z.string().meta({ format: "date-time" });

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

const FINDING_STATE = z.enum(["open", "fixed", "suppressed", "false_positive", "accepted_risk"]);

export const FindingUpdatedMessage = envelope(
  "finding.updated",
  z.object({
    organization_id: z.string(),
    previous_state: FINDING_STATE,
    cause: z.enum(["triage", "accepted_risk_expired"]).meta({
      description:
        "triage: a member changed the finding's triage; accepted_risk_expired: its accepted risk expired and it reopened (previous_state accepted_risk)",
    }),
    finding: z.object({
      id: z.string().regex(/^fnd_/),
      repository: z.string(),
      ref: z.string(),
      policy_id: z.string(),
      rule_id: z.string(),
      file: z.string(),
      line: z.number().int(),
      severity: z.string(),
      fingerprint: z.string(),
      state: FINDING_STATE,
      triage_reason: z.string().nullable(),
      triage_expires_at: ISO.nullable(),
      triaged_at: ISO.nullable(),
    }),
  }),
  "FindingUpdatedMessage",
  "A member triaged a finding (PATCH /v1/findings/{id}): marked it a false positive or an accepted risk, or took that back; or an accepted risk expired and the finding reopened (cause accepted_risk_expired, one message per finding).",
);

const CONNECTION = {
  organization_id: z.string(),
  connection_id: z.string().regex(/^conn_/),
  provider: z.enum(["gitea", "github", "gitlab"]),
  base_url: z.string().meta({ description: "The provider's address, as connected" }),
};

export const ConnectionBrokenMessage = envelope(
  "connection.broken",
  z.object({
    ...CONNECTION,
    error_class: z.string().meta({
      description: "Why: unauthorized (the provider refused the token, or the GitHub App's installation)",
    }),
    broken_at: ISO,
  }),
  "ConnectionBrokenMessage",
  "A provider connection turned broken: the provider refused its token (revoked, expired) or GitHub App. Checks through it fail until the token is replaced or the provider accepts it again. Never carries the token, key or webhook secret.",
);

export const ConnectionRestoredMessage = envelope(
  "connection.restored",
  z.object({ ...CONNECTION, restored_at: ISO }),
  "ConnectionRestoredMessage",
  "A broken provider connection works again: a check through it reached the provider.",
);

export const AuditRecordedMessage = envelope(
  "audit.recorded",
  z.object({
    seq: z.number().int().meta({ description: "The event's number in the organization's hash chain (1, 2, …)" }),
    id: z.string().regex(/^aud_/),
    organization_id: z.string(),
    type: z.enum(AUDIT_EVENT_TYPES),
    actor: z.object({ type: z.enum(["user", "api_key", "system", "anonymous"]), id: z.string(), ip: z.string() }),
    credential: z
      .object({ type: z.enum(["api_key", "session", "oauth_client"]), id: z.string() })
      .nullable()
      .meta({ description: "How the actor authenticated: the key's, session's or OAuth client's id (never a secret)" }),
    request_id: z.string().nullable(),
    target_type: z.string(),
    target_id: z.string(),
    occurred_at: ISO,
    data: z.record(z.string(), z.unknown()).meta({
      description:
        "Event-specific facts, never a secret; for a configuration change, `changes` maps each changed field to {before, after}",
    }),
    prev_hash: z.string().meta({ description: "SHA-256 (hex) of the event before it; zeros for the first" }),
    hash: z.string().meta({ description: "SHA-256 (hex) of the event's canonical form (docs/audit.md)" }),
  }),
  "AuditRecordedMessage",
  "An event took its place at the end of the organization's audit log: the event as the JSON Lines export (GET /v1/audit-events/export) carries it, so each message can be checked against the one before (seq, prev_hash, hash; @verdict/sdk's verifyAuditChain). Messages may arrive out of order (retries): order them by seq.",
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
    "finding.updated": op("finding.updated", "FindingUpdatedMessage", "A finding was triaged"),
    "connection.broken": op("connection.broken", "ConnectionBrokenMessage", "A provider connection turned broken"),
    "connection.restored": op(
      "connection.restored",
      "ConnectionRestoredMessage",
      "A broken provider connection works again",
    ),
    "audit.recorded": op("audit.recorded", "AuditRecordedMessage", "An event was appended to the audit log"),
    "webhook.disabled": op(
      "webhook.disabled",
      "WebhookDisabledMessage",
      "Another webhook of the organization was disabled",
    ),
    "webhook.ping": op("webhook.ping", "WebhookPingMessage", "Test message"),
  };
}
