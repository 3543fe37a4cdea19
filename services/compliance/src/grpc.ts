// gRPC handlers: map proto <-> use cases, nothing else.
import type { AsyncService } from "@verdict/kit";
import { complianceV1 } from "@verdict/proto";
import type { ComplianceDeps } from "./deps.js";
import { getFramework, getOverview } from "./usecases/coverage.js";
import { createReport } from "./usecases/createReport.js";
import { downloadReport } from "./usecases/downloadReport.js";
import { generateEvidence } from "./usecases/generateEvidence.js";
import { getReport, type ReportView } from "./usecases/getReport.js";
import { findingFields, listFindings, updateFinding, type FindingView } from "./usecases/findings.js";
import type { FindingStatus } from "./domain/findings.js";
import type { ReportRecord } from "./repo.js";
import { REPORT_SIGNATURE_ALGORITHM } from "./domain/reportKey.js";

type Def = typeof complianceV1.ComplianceServiceService;

/** The evidence window of a framework's detail when a gRPC caller names none (REST defaults to it too). */
const DEFAULT_EVIDENCE_DAYS = 90;

function toReport(r: ReportRecord, link?: ReportView["link"]): complianceV1.Report {
  return {
    report_id: r.id,
    status: r.status,
    frameworks: r.frameworks,
    format: r.format,
    date_range: r.date_range,
    created_at: r.created_at,
    completed_at: r.completed_at ?? "",
    failure_reason: r.failure_reason ?? "",
    download_expires: link?.expires ?? 0,
    download_signature: link?.signature ?? "",
    size_bytes: r.size_bytes,
    sha256: r.sha256 ?? "",
    signature: r.signature ?? "",
    signature_key_id: r.signature_key_id ?? "",
  };
}

function toFinding(f: FindingView): complianceV1.Finding {
  return {
    ...findingFields(f),
    message: f.message,
    first_seen_at: f.first_seen.at,
    last_seen_at: f.last_seen.at,
    last_evaluation_id: f.last_seen.evaluation_id,
    fixed_by_evaluation_id: f.fixed_by?.evaluation_id,
  };
}

export function complianceHandlers(deps: ComplianceDeps): AsyncService<Def> {
  return {
    async listFindings(req) {
      const { findings, hasMore } = await listFindings(deps, {
        organizationId: req.organization_id,
        ...(req.repository ? { repository: req.repository } : {}),
        ...(req.state ? { state: req.state as FindingStatus } : {}),
        ...(req.since ? { since: req.since } : {}),
        limit: req.limit || 100,
      });
      return { findings: findings.map(toFinding), has_more: hasMore };
    },
    async updateFinding(req) {
      const finding = await updateFinding(deps, {
        organizationId: req.organization_id,
        findingId: req.finding_id,
        state: req.state as "open" | "false_positive" | "accepted_risk",
        reason: req.reason,
        ...(req.expires_at ? { expiresAt: req.expires_at } : {}),
      });
      return { finding: toFinding(finding) };
    },
    async getOverview(req) {
      return getOverview(deps, { organizationId: req.organization_id });
    },
    async getFramework(req) {
      const c = await getFramework(deps, {
        organizationId: req.organization_id,
        frameworkId: req.framework_id,
        days: req.days || DEFAULT_EVIDENCE_DAYS,
      });
      return { framework: c.framework, coverage: c.coverage, controls: c.controls, evidence_range: c.evidence_range };
    },
    async createReport(req) {
      const report = await createReport(deps, {
        organizationId: req.organization_id,
        frameworks: req.frameworks,
        format: req.format,
        dateRange: req.last_days
          ? req.last_days
          : { start: req.date_range?.start ?? "", end: req.date_range?.end ?? "" },
        audit: req.audit,
      });
      return { report: toReport(report) };
    },
    async getReport(req) {
      const view = await getReport(deps, { organizationId: req.organization_id, reportId: req.report_id });
      return { report: toReport(view.report, view.link) };
    },
    async downloadReport(req) {
      const { report, content } = await downloadReport(deps, {
        reportId: req.report_id,
        expires: Number(req.expires),
        signature: req.signature,
        audit: req.audit,
      });
      return {
        content_type: report.content_type ?? "application/octet-stream",
        filename: report.filename ?? report.id,
        content,
      };
    },
    async getReportKey() {
      const key = deps.reports.key;
      return { algorithm: REPORT_SIGNATURE_ALGORITHM, public_key_pem: key.publicKeyPem, x: key.x, key_id: key.keyId };
    },
    async generateEvidence(req) {
      const report = await generateEvidence(deps, {
        organizationId: req.organization_id,
        framework: req.framework,
        format: req.format,
        dateRange: req.date_range,
      });
      return { report: toReport(report) };
    },
  };
}
