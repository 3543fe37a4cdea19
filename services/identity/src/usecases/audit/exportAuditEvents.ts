import type { IdentityDeps } from "../../deps.js";
import type { AuditCheckpoint, AuditRecord } from "../../repos/auditRepo.js";

export interface ExportAuditEventsQuery {
  organizationId: string;
  /** Events after this number (0: from the first). */
  afterSeq: number;
  limit: number;
}

export interface AuditExportPage {
  events: AuditRecord[];
  /** The last event the retention sweep deleted: the first kept event links to it (null: none). */
  checkpoint: AuditCheckpoint | null;
}

/** A page of the organization's audit events in chain order: what the export and its verification read. */
export async function exportAuditEvents(
  deps: Pick<IdentityDeps, "audit">,
  query: ExportAuditEventsQuery,
): Promise<AuditExportPage> {
  const checkpoint = await deps.audit.checkpoint(query.organizationId);
  const events = await deps.audit.chainPage(
    query.organizationId,
    Math.max(0, query.afterSeq, checkpoint?.seq ?? 0),
    Math.min(Math.max(1, query.limit), 1000),
  );
  return { events, checkpoint };
}
