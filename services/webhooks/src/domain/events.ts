// The events a webhook receives and the `data` each one carries. Bus events are mapped to these
// payloads field by field (an allowlist), so nothing a publisher adds later reaches a receiver
// unless it is added here, and in the OpenAPI document's `webhooks` section, on purpose. A
// violation's allowlist is the contract's message (verdict.evaluation.v1.Violation), which the
// OpenAPI document's Violation is generated from: a field added there is delivered and documented.
import type {
  AuditRecordedData,
  ConnectionHealthData,
  EvaluationCompletedData,
  FindingUpdatedData,
  PolicyViolationData,
} from "@verdict/bus";
import { evaluationV1 } from "@verdict/proto";

/** Names an endpoint may subscribe to (the interface specification's events). */
export const SUBSCRIBABLE_EVENTS = [
  "evaluation.completed",
  "policy.violation",
  "finding.updated",
  "connection.broken",
  "connection.restored",
  "audit.recorded",
] as const;
export type SubscribableEvent = (typeof SUBSCRIBABLE_EVENTS)[number];

/** Sent without subscription: a test message, and the notice that another endpoint was disabled. */
export const PING_EVENT = "webhook.ping";
export const DISABLED_EVENT = "webhook.disabled";
export type EventName = SubscribableEvent | typeof PING_EVENT | typeof DISABLED_EVENT;

export function isSubscribable(name: string): name is SubscribableEvent {
  return (SUBSCRIBABLE_EVENTS as readonly string[]).includes(name);
}

const str = (v: unknown) => (typeof v === "string" ? v : "");

/** The evaluation summary delivered with `evaluation.completed`. */
export function evaluationCompletedData(e: EvaluationCompletedData): Record<string, unknown> {
  return {
    organization_id: str(e.organization_id),
    evaluation_id: str(e.evaluation_id),
    repository: str(e.repository),
    ref: str(e.ref),
    status: e.status === "failed" ? "failed" : "completed",
    passed: typeof e.passed === "boolean" ? e.passed : null,
    completed_at: str(e.completed_at),
    summary: evaluationV1.Summary.fromJSON(e.summary ?? {}),
    ...(e.failure_reason ? { failure_reason: str(e.failure_reason) } : {}),
  };
}

/** The violation delivered with `policy.violation` (its snippet is redacted at the source). */
export function policyViolationData(e: PolicyViolationData): Record<string, unknown> {
  const v = (e.violation ?? {}) as Partial<evaluationV1.Violation>;
  return {
    organization_id: str(e.organization_id),
    evaluation_id: str(e.evaluation_id),
    repository: str(e.repository),
    // The contract's fields, each of its type (a missing one: its default); nothing else.
    violation: { ...evaluationV1.Violation.fromJSON(v), severity: v.severity === "warning" ? "warning" : "error" },
  };
}

const FINDING_STATES = ["open", "fixed", "suppressed", "false_positive", "accepted_risk"];
const state = (v: unknown) => (typeof v === "string" && FINDING_STATES.includes(v) ? v : "open");
const strOrNull = (v: unknown) => (typeof v === "string" ? v : null);

/** The finding delivered with `finding.updated`: where, what and its state (never a matched value). */
export function findingUpdatedData(e: FindingUpdatedData): Record<string, unknown> {
  const f = e.finding ?? {};
  return {
    organization_id: str(e.organization_id),
    previous_state: state(e.previous_state),
    cause: e.cause === "accepted_risk_expired" ? e.cause : "triage",
    finding: {
      id: str(f.id),
      repository: str(f.repository),
      ref: str(f.ref),
      policy_id: str(f.policy_id),
      rule_id: str(f.rule_id),
      file: str(f.file),
      line: typeof f.line === "number" ? f.line : 0,
      severity: str(f.severity),
      fingerprint: str(f.fingerprint),
      state: state(f.state),
      triage_reason: strOrNull(f.triage_reason),
      triage_expires_at: strOrNull(f.triage_expires_at),
      triaged_at: strOrNull(f.triaged_at),
    },
  };
}

/**
 * A provider connection delivered with `connection.broken` (the provider refused its token or
 * App: `error_class`, `broken_at`) and `connection.restored` (`restored_at`): its id, provider
 * and base URL, never its token, key or webhook secret.
 */
export function connectionHealthData(event: "connection.broken" | "connection.restored") {
  return (e: ConnectionHealthData): Record<string, unknown> => ({
    organization_id: str(e.organization_id),
    connection_id: str(e.connection_id),
    provider: str(e.provider),
    base_url: str(e.base_url),
    ...(event === "connection.broken"
      ? { error_class: str(e.error_class), broken_at: str(e.at) }
      : { restored_at: str(e.at) }),
  });
}

/**
 * An audit event delivered with `audit.recorded`, once it has its place in the organization's
 * chain: exactly the export's line (docs/audit.md), so a receiver checks each one against the
 * one before with @verdict/sdk's verifyAuditChain. `data` goes as recorded (the hash covers it):
 * the services put only listed fields in it, never a secret.
 */
export function auditRecordedData(e: AuditRecordedData): Record<string, unknown> {
  const actor = e.actor ?? {};
  const cred = e.credential;
  return {
    seq: typeof e.seq === "number" ? e.seq : 0,
    id: str(e.id),
    organization_id: str(e.organization_id),
    type: str(e.type),
    actor: { type: str(actor.type), id: str(actor.id), ip: str(actor.ip) },
    credential: cred && typeof cred === "object" ? { type: str(cred.type), id: str(cred.id) } : null,
    request_id: strOrNull(e.request_id),
    target_type: str(e.target_type),
    target_id: str(e.target_id),
    occurred_at: str(e.occurred_at),
    data: e.data && typeof e.data === "object" ? e.data : {},
    prev_hash: str(e.prev_hash),
    hash: str(e.hash),
  };
}

export function pingData(organizationId: string, webhookId: string): Record<string, unknown> {
  return {
    organization_id: organizationId,
    webhook_id: webhookId,
    message: "Verdict test message: this endpoint is reachable and verifies signatures.",
  };
}

export function disabledData(
  organizationId: string,
  webhookId: string,
  url: string,
  reason: string,
  disabledAt: string,
): Record<string, unknown> {
  return { organization_id: organizationId, webhook_id: webhookId, url, reason, disabled_at: disabledAt };
}

/**
 * The JSON body of a message: `{event, data, id, timestamp}`. It is made once, stored, and sent
 * byte for byte on every attempt (only the signature headers change with the attempt time).
 */
export function messageBody(
  messageId: string,
  event: EventName,
  data: Record<string, unknown>,
  timestamp: string,
): string {
  return JSON.stringify({ event, data, id: messageId, timestamp });
}
