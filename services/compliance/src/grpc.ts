// gRPC handlers: map proto <-> use cases, nothing else.
import { commandOf, type AsyncService } from "@verdict/kit";
import { complianceV1 } from "@verdict/proto";
import type { ComplianceDeps } from "./deps.js";
import { getFramework, getOverview } from "./usecases/coverage.js";
import { createReport } from "./usecases/createReport.js";
import { downloadReport } from "./usecases/downloadReport.js";
import { generateEvidence } from "./usecases/generateEvidence.js";
import { getReport, type ReportView } from "./usecases/getReport.js";
import {
  findingFields,
  listFindings,
  updateFinding,
  type FindingView,
  type UpdateFindingCommand,
} from "./usecases/findings.js";
import type { ReportRecord } from "./repo.js";
import { REPORT_SIGNATURE_ALGORITHM } from "./domain/reportKey.js";

type Def = typeof complianceV1.ComplianceServiceService;

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
      const { findings, hasMore } = await listFindings(deps, commandOf(req));
      return { findings: findings.map(toFinding), has_more: hasMore };
    },
    async updateFinding(req) {
      // The gateway's schema checked the state against the enum the use case takes.
      const state = req.state as UpdateFindingCommand["state"];
      return { finding: toFinding(await updateFinding(deps, { ...commandOf(req), state })) };
    },
    async getOverview(req) {
      return getOverview(deps, commandOf(req));
    },
    async getFramework(req) {
      const c = await getFramework(deps, commandOf(req));
      return { framework: c.framework, coverage: c.coverage, controls: c.controls, evidence_range: c.evidence_range };
    },
    async createReport(req) {
      // The range is two fields on the wire, "<n>d" or {start, end}: the use case takes either.
      const dateRange = req.last_days || { start: req.date_range?.start ?? "", end: req.date_range?.end ?? "" };
      return { report: toReport(await createReport(deps, { ...commandOf(req), dateRange })) };
    },
    async getReport(req) {
      const view = await getReport(deps, commandOf(req));
      return { report: toReport(view.report, view.link) };
    },
    async downloadReport(req) {
      // An int64 arrives as its decimal string.
      const { report, content } = await downloadReport(deps, { ...commandOf(req), expires: Number(req.expires) });
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
      return { report: toReport(await generateEvidence(deps, commandOf(req))) };
    },
  };
}
