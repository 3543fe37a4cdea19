// A report of the organization, with a fresh signed download link once it is completed.
import { errors } from "@verdict/kit";
import { signDownload } from "../domain/signing.js";
import type { ComplianceDeps } from "../deps.js";
import type { ReportRecord } from "../repo.js";

export interface ReportView {
  report: ReportRecord;
  /** Set for completed reports: a fresh signed link. */
  link?: { url: string; expires: number; signature: string };
}

export function downloadLink(
  deps: ComplianceDeps,
  reportId: string,
): { url: string; expires: number; signature: string } {
  const expires = Math.floor(deps.clock.now().getTime() / 1000) + deps.links.ttlSeconds;
  const signature = signDownload(deps.links.signingKey, reportId, expires);
  const url = `${deps.links.apiBaseUrl()}/compliance/reports/${reportId}/download?expires=${expires}&signature=${signature}`;
  return { url, expires, signature };
}

export interface GetReportQuery {
  organizationId: string;
  reportId: string;
}

export async function getReport(deps: ComplianceDeps, query: GetReportQuery): Promise<ReportView> {
  const { organizationId, reportId } = query;
  const report = await deps.repo.findReport(organizationId, reportId);
  if (!report) throw errors.notFound("report", reportId);
  return report.status === "completed" ? { report, link: downloadLink(deps, report.id) } : { report };
}
