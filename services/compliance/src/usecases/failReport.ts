// Failing reports that will not finish: a generation that failed for good, or one cut short.
import { TOPICS } from "@verdict/bus";
import type { ComplianceDeps } from "../deps.js";

export interface ReportFailedData {
  organization_id: string;
  report_id: string;
  /** When the report was requested: the quota window it was counted in. */
  created_at: string;
  reason: string;
}

export interface FailReportCommand {
  organizationId: string;
  reportId: string;
  reason: string;
}

/**
 * Moves a generating report to failed with a reason, once, and announces it (report.failed):
 * a report that produced nothing must not use up the organization's hourly report quota.
 */
export async function failReport(
  deps: ComplianceDeps,
  { organizationId, reportId, reason }: FailReportCommand,
): Promise<void> {
  // The event carries when the report was requested, so read it first.
  const report = await deps.repo.findReport(organizationId, reportId);
  if (!report || report.status !== "generating") return;
  const data: ReportFailedData = {
    organization_id: organizationId,
    report_id: reportId,
    created_at: report.created_at,
    reason,
  };
  const event = deps.outbox.event(TOPICS.reportFailed, { source: "/compliance", subject: reportId, data });
  if (!(await deps.repo.failGenerating(organizationId, reportId, deps.clock.now().toISOString(), reason, event)))
    return;
  deps.logger.warn({ organization_id: organizationId, report_id: reportId, reason }, "report failed");
}

export interface FailStaleReportsCommand {
  cutoff: Date;
  reason: string;
}

/**
 * Fails the reports still generating that were requested before `cutoff`: their generation was
 * cut short (the process was killed, or it ran past its lease) and nothing will finish them.
 */
export async function failStaleReports(
  deps: ComplianceDeps,
  { cutoff, reason }: FailStaleReportsCommand,
): Promise<number> {
  const stale = await deps.repo.generatingSince(cutoff.toISOString(), 1_000);
  for (const report of stale)
    await failReport(deps, { organizationId: report.organization_id, reportId: report.id, reason });
  return stale.length;
}
