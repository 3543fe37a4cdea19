// The audit events of reports: who asked for one, and every download of its file.
import { fieldChanges } from "@verdict/kit";
import { auditChangeEvent, type AuditContextInput, type PendingEvent } from "@verdict/outbox";
import type { ComplianceDeps } from "../deps.js";
import type { ReportRecord } from "../repo.js";

const AUDITED_FIELDS = ["format", "frameworks", "date_range"] as const;

export function reportAuditEvent(
  deps: ComplianceDeps,
  type: "report.created" | "report.downloaded",
  report: ReportRecord,
  context: AuditContextInput | undefined,
): PendingEvent {
  return auditChangeEvent(deps.outbox, deps.clock, "/compliance", {
    organizationId: report.organization_id,
    type,
    context,
    targetType: "report",
    targetId: report.id,
    ...(type === "report.created"
      ? { changes: fieldChanges(null, { ...report }, AUDITED_FIELDS) }
      : { data: { format: report.format, filename: report.filename, size_bytes: report.size_bytes } }),
  });
}
