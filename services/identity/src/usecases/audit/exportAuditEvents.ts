import type { IdentityDeps } from "../../deps.js";
import type { AuditRecord } from "../../repos/auditRepo.js";

export interface ExportAuditEventsQuery {
  organizationId: string;
  /** Events after this number (0: from the first). */
  afterSeq: number;
  limit: number;
}

/** A page of the organization's audit events in chain order: what the export and its verification read. */
export function exportAuditEvents(deps: IdentityDeps, query: ExportAuditEventsQuery): Promise<AuditRecord[]> {
  return deps.audit.chainPage(
    query.organizationId,
    Math.max(0, query.afterSeq),
    Math.min(Math.max(1, query.limit), 1000),
  );
}
