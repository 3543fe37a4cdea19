// Requests an evidence report: stored as "generating" with its report.requested event (outbox);
// generateReport makes the file on a consumer.
import { errors, newId, type FieldError } from "@verdict/kit";
import { TOPICS } from "@verdict/bus";
import { checkDateRange, parseLastDays, type DateRange } from "../domain/dateRange.js";
import type { ComplianceDeps } from "../deps.js";
import type { AuditContextInput } from "@verdict/outbox";
import type { ReportFormat, ReportRecord } from "../repo.js";
import { reportAuditEvent } from "./reportAudit.js";

export interface CreateReportCommand {
  organizationId: string;
  frameworks: string[];
  format: string;
  /** Either an explicit range or "<n>d". */
  dateRange: DateRange | string;
  /** Field path of the range in error details (the MCP tool names its argument date_range too). */
  rangeField?: string;
  frameworksField?: string;
  /** Who asks, for the audit event written with the change. */
  audit?: AuditContextInput | undefined;
}

export interface ReportRequestedData {
  organization_id: string;
  report_id: string;
}

export const FORMATS: readonly ReportFormat[] = ["pdf", "oscal"];

export async function createReport(deps: ComplianceDeps, cmd: CreateReportCommand): Promise<ReportRecord> {
  const now = deps.clock.now();
  const problems: FieldError[] = [];
  const known = new Set(deps.catalogs.map((c) => c.id));
  const fwField = cmd.frameworksField ?? "frameworks";
  if (cmd.frameworks.length === 0)
    problems.push({ field: fwField, code: "MIN_SIZE_REQUIRED", message: "Name at least one framework", min: 1 });
  cmd.frameworks.forEach((id, i) => {
    if (!known.has(id))
      problems.push({
        field: cmd.frameworksField ?? `frameworks[${i}]`,
        code: "INVALID_ENUM",
        message: `Unknown framework '${id}'; see GET /v1/compliance/overview`,
      });
  });
  if (!FORMATS.includes(cmd.format as ReportFormat))
    problems.push({ field: "format", code: "INVALID_ENUM", message: "Must be pdf or oscal" });
  const rangeField = cmd.rangeField ?? "date_range";
  let range: DateRange | undefined;
  if (typeof cmd.dateRange === "string") {
    const parsed = parseLastDays(cmd.dateRange, now, rangeField);
    problems.push(...parsed.problems);
    range = parsed.range;
  } else {
    const p = checkDateRange(cmd.dateRange, now, rangeField);
    problems.push(...p);
    if (p.length === 0) range = cmd.dateRange;
  }
  if (problems.length > 0 || !range) throw errors.unprocessable(problems);

  const report: ReportRecord = {
    id: newId("report", now.getTime()),
    organization_id: cmd.organizationId,
    status: "generating",
    frameworks: [...new Set(cmd.frameworks)],
    format: cmd.format as ReportFormat,
    date_range: range,
    created_at: now.toISOString(),
    completed_at: null,
    failure_reason: null,
    content_type: null,
    filename: null,
    size_bytes: 0,
    chunks: 0,
  };
  const data: ReportRequestedData = { organization_id: cmd.organizationId, report_id: report.id };
  await deps.repo.insertReport(report, [
    deps.outbox.event(TOPICS.reportRequested, { source: "/compliance", subject: report.id, data }),
    reportAuditEvent(deps, "report.created", report, cmd.audit),
  ]);
  deps.logger.info(
    { organization_id: cmd.organizationId, report_id: report.id, format: report.format, frameworks: report.frameworks },
    "report requested",
  );
  return report;
}
