import { TOPICS } from "@verdict/bus";
import { newId } from "@verdict/kit";
import type { AuditType } from "../../domain/audit.js";
import type { IdentityDeps } from "../../deps.js";
import type { AuditRecord, UnchainedAuditRecord } from "../../repos/auditRepo.js";

export type Actor = AuditRecord["actor"];

/** The instance itself (bootstrap, organization creation by configuration). */
export const SYSTEM_ACTOR: Actor = { type: "system", id: "verdict", ip: "" };

export interface RecordAuditCommand {
  organizationId: string;
  type: AuditType;
  actor: Actor;
  targetType: string;
  targetId: string;
  /** Facts about the event; never a secret (no passwords, tokens, codes or key values). */
  data?: Record<string, unknown>;
}

/** Appends a security event to the audit log and publishes it on the bus (written together). */
export function recordAudit(deps: IdentityDeps, cmd: RecordAuditCommand): Promise<AuditRecord> {
  return appendAuditRecord(deps, {
    id: newId("aud"),
    organization_id: cmd.organizationId,
    type: cmd.type,
    actor: cmd.actor,
    target_type: cmd.targetType,
    target_id: cmd.targetId,
    occurred_at: deps.clock.now().toISOString(),
    data: cmd.data ?? {},
  });
}

/** Writes a record at the end of the organization's audit chain with the bus event that publishes it. */
export function appendAuditRecord(deps: IdentityDeps, record: UnchainedAuditRecord): Promise<AuditRecord> {
  return deps.audit.append(record, (chained) =>
    deps.outbox.event(TOPICS.auditRecorded, { source: "/identity", subject: chained.id, data: chained }),
  );
}
