import type { CloudEvent } from "@verdict/bus";
import type { AuditChangeData } from "@verdict/outbox";
import { DuplicateKeyError } from "@verdict/store";
import { isAuditType } from "../../domain/audit.js";
import type { IdentityDeps } from "../../deps.js";
import type { UnchainedAuditRecord } from "../../repos/auditRepo.js";
import { appendAuditRecord } from "./recordAudit.js";

/**
 * Appends a configuration change another service (or identity itself) wrote through its outbox
 * (`verdict.audit.change`) to the organization's audit log. The record's id is the event's
 * (aud_ + the same time-sortable suffix), so a redelivered event is recorded once.
 */
export async function appendAuditChange(deps: IdentityDeps, event: CloudEvent<AuditChangeData>): Promise<void> {
  const c = event.data;
  if (!isAuditType(c.type)) {
    deps.logger.warn({ event_id: event.id, type: c.type }, "audit change of an unknown type: not recorded");
    return;
  }
  const record: UnchainedAuditRecord = {
    id: `aud_${event.id.slice(event.id.indexOf("_") + 1)}`,
    organization_id: c.organization_id,
    type: c.type,
    actor: c.actor,
    credential: c.credential,
    request_id: c.request_id,
    target_type: c.target_type,
    target_id: c.target_id,
    occurred_at: c.occurred_at,
    data: c.data,
  };
  try {
    await appendAuditRecord(deps, record);
  } catch (err) {
    if (!(err instanceof DuplicateKeyError)) throw err;
  }
}
