// The data the evaluation service's topics carry (the CloudEvent's `data`), written once: the
// publisher builds it with these types and every consumer (compliance's evidence, the policy
// service's "last evaluated", webhooks) reads it with them. A violation and a suppression are the
// contract's messages, as the evaluation service stores and answers them.
import type { evaluationV1 } from "@verdict/proto";

/** `verdict.evaluation.requested`: an evaluation queued for a worker. */
export interface EvaluationRequestedData {
  organization_id: string;
  evaluation_id: string;
}

/** `verdict.evaluation.completed`: an evaluation finished, or failed. */
export interface EvaluationCompletedData {
  organization_id: string;
  evaluation_id: string;
  repository: string;
  ref: string;
  status: "completed" | "failed";
  /** Null when it failed. */
  passed: boolean | null;
  completed_at: string;
  summary: evaluationV1.Summary;
  /** The policies that ran (compliance evidence: which controls this evaluation checked). */
  policies: string[];
  /** Paths of the files the engine read (compliance evidence: which files the policies could
   * apply to); absent from events of evaluation services that predate it. */
  scanned_paths?: string[];
  failure_reason?: string;
}

/** `verdict.policy.violation`: one violation of a finished evaluation. */
export interface PolicyViolationData {
  organization_id: string;
  evaluation_id: string;
  repository: string;
  /** Already redacted, as stored. */
  violation: evaluationV1.Violation;
}

/** `verdict.policy.bypassed`: a finding silenced inline (or by a bypass reason), kept as evidence. */
export interface PolicyBypassedData {
  organization_id: string;
  evaluation_id: string;
  repository: string;
  ref: string;
  bypassed_at: string;
  suppression: evaluationV1.Suppression;
}

/**
 * `verdict.finding.updated`: a member triaged a finding, or its accepted risk expired (the
 * compliance service's findings model).
 */
export interface FindingUpdatedData {
  organization_id: string;
  /** The state before the change (open, fixed, suppressed, false_positive, accepted_risk). */
  previous_state: string;
  /** Why: a member's triage, or the expiry of an accepted risk (the finding reopened). */
  cause: "triage" | "accepted_risk_expired";
  /** The finding as the API answers it (never a matched value). */
  finding: Record<string, unknown>;
}

/**
 * `verdict.integrations.connection_broken` and `connection_restored`: a provider connection's
 * health changed. The connection's address and the error's class, never its token or key.
 */
export interface ConnectionHealthData {
  organization_id: string;
  connection_id: string;
  provider: string;
  base_url: string;
  /** broken: why (the provider error's class, e.g. `unauthorized`); restored: absent. */
  error_class?: string;
  /** When the connection turned broken, or worked again (ISO). */
  at: string;
}

/**
 * `verdict.identity.audit_recorded`: an event took its place at the end of its organization's
 * audit chain (docs/audit.md): the event as the JSON Lines export carries it.
 */
export interface AuditRecordedData {
  organization_id: string;
  seq: number;
  id: string;
  type: string;
  actor: { type: string; id: string; ip: string };
  /** Absent on events recorded before credentials were. */
  credential?: { type: string; id: string } | null;
  request_id?: string | null;
  target_type: string;
  target_id: string;
  occurred_at: string;
  data: Record<string, unknown>;
  prev_hash: string;
  hash: string;
}
