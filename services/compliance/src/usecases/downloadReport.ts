// A completed report's file, through its signed link: the link is the credential, so this read
// is not scoped by organization.
import { AppError, errors } from "@verdict/kit";
import { checkDownload } from "../domain/signing.js";
import type { AuditContextInput } from "@verdict/outbox";
import type { ComplianceDeps } from "../deps.js";
import { reportAuditEvent } from "./reportAudit.js";

export interface DownloadReportQuery {
  reportId: string;
  /** Unix seconds, from the link. */
  expires: number;
  signature: string;
  /** Who asks (an address: the link is the credential), for the audit event of the download. */
  audit?: AuditContextInput | undefined;
}

export async function downloadReport(deps: ComplianceDeps, query: DownloadReportQuery) {
  const { reportId, expires, signature } = query;
  const check = checkDownload(
    deps.links.signingKey,
    reportId,
    expires,
    signature,
    Math.floor(deps.clock.now().getTime() / 1000),
  );
  if (check === "invalid")
    throw new AppError(
      "forbidden",
      "DOWNLOAD_LINK_INVALID",
      "This download link is not valid; get a fresh one from GET /v1/compliance/reports/{report_id}",
    );
  if (check === "expired")
    throw new AppError(
      "deleted",
      "DOWNLOAD_LINK_EXPIRED",
      "This download link has expired; get a fresh one from GET /v1/compliance/reports/{report_id}",
      { resource_type: "report", resource_id: reportId },
    );
  const report = await deps.repo.findReportForDownload(reportId);
  if (!report || report.status !== "completed") throw errors.notFound("report", reportId);
  const content = await deps.repo.loadFile(report.id);
  await deps.repo.recordDownload(report, deps.clock.now().toISOString(), [
    reportAuditEvent(deps, "report.downloaded", report, query.audit),
  ]);
  return { report, content };
}
