// The compliance service's collections, through the Store port: reports (with their files in
// chunks, so a large export stays under a MongoDB document's size) and a projection of the
// evaluation events it needs as evidence.
import type { Collection, Store } from "@verdict/store";
import type { DateRange } from "./domain/dateRange.js";

export type ReportStatus = "generating" | "completed" | "failed";
export type ReportFormat = "pdf" | "oscal";

export interface ReportRecord {
  id: string;
  organization_id: string;
  status: ReportStatus;
  frameworks: string[];
  format: ReportFormat;
  date_range: DateRange;
  created_at: string;
  completed_at: string | null;
  failure_reason: string | null;
  content_type: string | null;
  filename: string | null;
  size_bytes: number;
  chunks: number;
}

export interface ReportChunk {
  id: string;
  report_id: string;
  index: number;
  /** base64 */
  data: string;
}

export interface EvaluationDoc {
  id: string;
  organization_id: string;
  repository: string;
  ref: string;
  completed_at: string;
  passed: boolean;
  policies: string[];
}

export interface ViolationDoc {
  id: string;
  organization_id: string;
  evaluation_id: string;
  policy_id: string;
  rule_id: string;
  severity: string;
  file: string;
  line: number;
  message: string;
}

export interface BypassDoc {
  id: string;
  organization_id: string;
  evaluation_id: string;
  repository: string;
  ref: string;
  bypassed_at: string;
  policy_id: string;
  rule_id: string;
  file: string;
  line: number;
  reason: string;
}

/** Bytes of file content per chunk document (base64 grows it by a third: ~8 MB stored). */
export const CHUNK_BYTES = 6 * 1024 * 1024;

export class ComplianceRepo {
  readonly reports: Collection<ReportRecord>;
  readonly chunks: Collection<ReportChunk>;
  readonly evaluations: Collection<EvaluationDoc>;
  readonly violations: Collection<ViolationDoc>;
  readonly bypasses: Collection<BypassDoc>;

  constructor(store: Store) {
    this.reports = store.collection<ReportRecord>("compliance_reports");
    this.chunks = store.collection<ReportChunk>("compliance_report_chunks");
    this.evaluations = store.collection<EvaluationDoc>("compliance_evaluations");
    this.violations = store.collection<ViolationDoc>("compliance_violations");
    this.bypasses = store.collection<BypassDoc>("compliance_bypasses");
  }

  async init(): Promise<void> {
    await this.reports.ensureIndexes([
      { name: "org_id", fields: { organization_id: 1, id: 1 } },
      { name: "status_created", fields: { status: 1, created_at: 1 } },
    ]);
    await this.chunks.ensureIndexes([{ name: "report_index", fields: { report_id: 1, index: 1 }, unique: true }]);
    await this.evaluations.ensureIndexes([{ name: "org_completed", fields: { organization_id: 1, completed_at: 1, id: 1 } }]);
    await this.violations.ensureIndexes([{ name: "org_evaluation", fields: { organization_id: 1, evaluation_id: 1, id: 1 } }]);
    await this.bypasses.ensureIndexes([{ name: "org_time", fields: { organization_id: 1, bypassed_at: 1, id: 1 } }]);
  }

  async saveFile(reportId: string, content: Buffer): Promise<number> {
    await this.chunks.deleteMany({ report_id: reportId });
    let index = 0;
    for (let offset = 0; offset < content.length || index === 0; offset += CHUNK_BYTES) {
      const part = content.subarray(offset, offset + CHUNK_BYTES);
      await this.chunks.insertOne({ id: `${reportId}.${index}`, report_id: reportId, index, data: part.toString("base64") });
      index++;
    }
    return index;
  }

  async loadFile(reportId: string): Promise<Buffer> {
    const parts = await this.chunks.find({ report_id: reportId }, { sort: { index: 1 } });
    return Buffer.concat(parts.map((p) => Buffer.from(p.data, "base64")));
  }
}
