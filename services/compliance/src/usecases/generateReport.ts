// Makes a report's file from the evidence projection and the policies as they are now, stores
// it, and moves the report to completed (or failed, with a reason). Idempotent: a report that is
// no longer generating is left alone (at-least-once delivery). The evidence is assembled and
// rendered on a report worker thread (renderWorker.ts) within VERDICT_REPORT_TIMEOUT_MS.
import { PoolJobError } from "@verdict/runtime";
import { instants } from "../domain/dateRange.js";
import type { EvidenceInput } from "../domain/evidence.js";
import type { ComplianceDeps, OrganizationProfile } from "../deps.js";
import type { ReportScope } from "../domain/pdf/scope.js";
import type { ReportRecord } from "../repo.js";
import { failReport } from "./failReport.js";
import { REPORT_KEY_PATH, sealFile } from "../domain/reportKey.js";

/** What the evidence is assembled from, as plain data (it crosses to a worker thread). */
export async function loadEvidenceInput(deps: ComplianceDeps, report: ReportRecord): Promise<EvidenceInput> {
  const { from, to } = instants(report.date_range);
  const org = report.organization_id;
  const { evaluations, violations, bypasses } = await deps.repo.evidenceFor(org, { from, to });
  const catalogs = report.frameworks.map((id) => deps.catalogs.find((c) => c.id === id)).filter((c) => c !== undefined);
  return {
    organizationId: org,
    reportId: report.id,
    range: report.date_range,
    generatedAt: deps.clock.now().toISOString(),
    catalogs,
    policies: await deps.policies.list(org),
    evaluations,
    violations,
    bypasses,
    triage: await deps.triage.forOrganization(org),
  };
}

/** The PDF's scope page: the organization's description and the key that will sign the file. */
function reportScope(deps: ComplianceDeps, organization: OrganizationProfile): ReportScope {
  return {
    systemDescription: organization.systemDescription,
    reportScope: organization.reportScope,
    keyId: deps.reports.key.keyId,
    publicKeyUrl: `${deps.links.apiBaseUrl().replace(/\/v1\/?$/, "")}${REPORT_KEY_PATH}`,
  };
}

export interface GenerateReportCommand {
  organizationId: string;
  reportId: string;
}

export async function generateReport(
  deps: ComplianceDeps,
  { organizationId, reportId }: GenerateReportCommand,
): Promise<void> {
  const report = await deps.repo.findReport(organizationId, reportId);
  if (!report || report.status !== "generating") return;
  const input = await loadEvidenceInput(deps, report);
  const organization = await deps.organizations.profile(organizationId);
  const stem = `verdict-evidence-${report.frameworks.length === 1 ? report.frameworks[0] : "frameworks"}-${report.date_range.start}-to-${report.date_range.end}`;
  const pdf = report.format === "pdf";
  const timeoutMs = deps.reports.timeoutMs;
  let content: Buffer;
  try {
    const bytes = await deps.reports.renderer.run(
      organizationId,
      {
        format: pdf ? "pdf" : "oscal",
        input,
        organizationName: organization.name,
        apiBaseUrl: deps.links.apiBaseUrl(),
        scope: reportScope(deps, organization),
      },
      { timeoutMs },
    );
    content = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  } catch (err) {
    // Deterministic for this report: retrying would only burn another thread for as long.
    if (err instanceof PoolJobError && err.reason === "deadline") {
      await failReport(deps, {
        organizationId,
        reportId: report.id,
        reason: `The report did not finish within ${timeoutMs} ms; ask for fewer frameworks or a shorter date range`,
      });
      return;
    }
    throw err;
  }
  const contentType = pdf ? "application/pdf" : "application/zip";
  const filename = pdf ? `${stem}.pdf` : `${stem}-oscal.zip`;
  const chunks = await deps.repo.saveFile(report.id, content);
  const seal = sealFile(deps.reports.key, content);
  await deps.repo.completeReport(report.id, {
    sha256: seal.sha256,
    signature: seal.signature,
    signature_key_id: seal.keyId,
    completed_at: deps.clock.now().toISOString(),
    content_type: contentType,
    filename,
    size_bytes: content.length,
    chunks,
  });
  deps.logger.info(
    { organization_id: organizationId, report_id: report.id, bytes: content.length },
    "report completed",
  );
}
