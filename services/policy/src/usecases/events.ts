import { TOPICS } from "@verdict/bus";
import { auditChangeEvent, type AuditChange, type PendingEvent } from "@verdict/outbox";
import type { PolicyDeps } from "../deps.js";

export type PolicyChangeAction = "created" | "updated" | "deleted";

/** Data of `verdict.policy.changed`: consumers (compliance coverage, caches) re-read the policy. */
export interface PolicyChangedData {
  organization_id: string;
  policy_id: string;
  action: PolicyChangeAction;
}

export interface PolicyChange {
  organizationId: string;
  policyId: string;
  action: PolicyChangeAction;
}

/** `verdict.policy.changed`, written through the outbox with the change it announces. */
export function policyChangedEvent(deps: PolicyDeps, { organizationId, policyId, action }: PolicyChange): PendingEvent {
  const data: PolicyChangedData = { organization_id: organizationId, policy_id: policyId, action };
  return deps.outbox.event(TOPICS.policyChanged, { source: "/policy", subject: policyId, data });
}

export function logPolicyChanged(deps: PolicyDeps, { organizationId, policyId, action }: PolicyChange): void {
  deps.logger.info({ organization_id: organizationId, policy_id: policyId, action }, `policy ${action}`);
}

/** The audit event of a change the policy service owns, written through the outbox with it. */
export function policyAuditEvent(deps: PolicyDeps, change: AuditChange): PendingEvent {
  return auditChangeEvent(deps.outbox, deps.clock, "/policy", change);
}
