// The compliance service's collections, through the Store port: reports (with their files in
// chunks, so a large export stays under a MongoDB document's size) and a projection of the
// evaluation events it needs as evidence.
import { OutboxRepository, type Outbox, type PendingEvent } from "@verdict/outbox";
import { type Collection, collectionDef, DuplicateKeyError, type Store } from "@verdict/store";
import type { DateRange } from "./domain/dateRange.js";
import type { BypassFact, EvaluationFact, ViolationFact } from "./domain/evidence.js";

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
  /** Set when completed (absent on reports made before files were signed): the file's SHA-256, hex. */
  sha256?: string | null;
  /** The file's detached Ed25519 signature (base64) and the id of the key that made it. */
  signature?: string | null;
  signature_key_id?: string | null;
  /** When the file was last downloaded (written with the download's audit event); absent: never. */
  last_downloaded_at?: string;
}

export interface ReportChunk {
  id: string;
  report_id: string;
  index: number;
  /** base64 */
  data: string;
}

/** The projection's documents: the evidence facts, each kept under its organization. */
export interface EvaluationDoc extends EvaluationFact {
  organization_id: string;
}

export interface ViolationDoc extends ViolationFact {
  organization_id: string;
}

export interface BypassDoc extends BypassFact {
  organization_id: string;
}

/** Bytes of file content per chunk document (base64 grows it by a third: ~8 MB stored). */
export const CHUNK_BYTES = 6 * 1024 * 1024;

/** An organization's evidence of a period: evaluations completed in it, their violations, and the bypasses made in it. */
export interface EvidenceRecords {
  evaluations: EvaluationDoc[];
  violations: ViolationDoc[];
  bypasses: BypassDoc[];
}

/** Evaluation ids per `$in` query when loading violations. */
const IN_CHUNK = 500;

/**
 * The collections and the indexes their queries use. org_id: a report by id. status_created: the
 * sweep of stale reports. report_index: a file's chunks in order. The evidence indexes serve
 * evidenceFor.
 */
const COLLECTIONS = {
  reports: collectionDef<ReportRecord>("compliance_reports", [
    { name: "org_id", fields: { organization_id: 1, id: 1 } },
    { name: "status_created", fields: { status: 1, created_at: 1 } },
  ]),
  chunks: collectionDef<ReportChunk>("compliance_report_chunks", [
    { name: "report_index", fields: { report_id: 1, index: 1 }, unique: true },
  ]),
  evaluations: collectionDef<EvaluationDoc>("compliance_evaluations", [
    { name: "org_completed", fields: { organization_id: 1, completed_at: 1, id: 1 } },
  ]),
  violations: collectionDef<ViolationDoc>("compliance_violations", [
    { name: "org_evaluation", fields: { organization_id: 1, evaluation_id: 1, id: 1 } },
  ]),
  bypasses: collectionDef<BypassDoc>("compliance_bypasses", [
    { name: "org_time", fields: { organization_id: 1, bypassed_at: 1, id: 1 } },
  ]),
};

/**
 * The compliance service's collections, behind methods named for what the use cases ask. Every
 * query is scoped by organization, except the signed download (the link is the authorization)
 * and the sweep of stale reports (all organizations').
 */
export class ComplianceRepo extends OutboxRepository<typeof COLLECTIONS> {
  constructor(store: Store, outbox: Outbox) {
    // A report's request and failure are announced through the outbox: never one without the other.
    super(store, outbox, COLLECTIONS, ["reports"]);
  }

  // The evidence projection (fed by evaluation events; at-least-once, so each record once)

  recordEvaluation(doc: EvaluationDoc): Promise<void> {
    return insertOnce(this.c.evaluations, doc);
  }

  recordViolation(doc: ViolationDoc): Promise<void> {
    return insertOnce(this.c.violations, doc);
  }

  recordBypass(doc: BypassDoc): Promise<void> {
    return insertOnce(this.c.bypasses, doc);
  }

  /** The organization's evidence from `from` (inclusive) to `to` (exclusive), in time order. */
  async evidenceFor(organizationId: string, range: { from: string; to: string }): Promise<EvidenceRecords> {
    const evaluations = await this.c.evaluations.find(
      { organization_id: organizationId, completed_at: { $gte: range.from, $lt: range.to } },
      { sort: { completed_at: 1 } },
    );
    const violations: ViolationDoc[] = [];
    for (let i = 0; i < evaluations.length; i += IN_CHUNK) {
      const ids = evaluations.slice(i, i + IN_CHUNK).map((e) => e.id);
      violations.push(
        ...(await this.c.violations.find({ organization_id: organizationId, evaluation_id: { $in: ids } })),
      );
    }
    const bypasses = await this.c.bypasses.find(
      { organization_id: organizationId, bypassed_at: { $gte: range.from, $lt: range.to } },
      { sort: { bypassed_at: 1 } },
    );
    return { evaluations, violations, bypasses };
  }

  // Reports

  /** Stores a new report with the events that announce it (report.requested). */
  insertReport(report: ReportRecord, events: PendingEvent[]): Promise<void> {
    return this.outbox.insert(this.c.reports, report, events);
  }

  findReport(organizationId: string, reportId: string): Promise<ReportRecord | null> {
    return this.c.reports.findOne({ id: reportId, organization_id: organizationId });
  }

  /** A report by id alone: only for a signed download link, which names no organization. */
  findReportForDownload(reportId: string): Promise<ReportRecord | null> {
    return this.c.reports.findOne({ id: reportId });
  }

  /** Records a download of the report with its events (the audit event): the download is never unrecorded. */
  async recordDownload(report: ReportRecord, at: string, events: PendingEvent[]): Promise<void> {
    await this.outbox.update(this.c.reports, { id: report.id }, { last_downloaded_at: at }, events);
  }

  /** Completes a report still generating (a report failed meanwhile stays failed). */
  completeReport(
    reportId: string,
    set: Pick<
      ReportRecord,
      | "completed_at"
      | "content_type"
      | "filename"
      | "size_bytes"
      | "chunks"
      | "sha256"
      | "signature"
      | "signature_key_id"
    >,
  ): Promise<ReportRecord | null> {
    return this.c.reports.updateOne({ id: reportId, status: "generating" }, { status: "completed", ...set });
  }

  /** Fails a report still generating, with the event that announces it; null when it was not (the first caller wins). */
  failGenerating(
    organizationId: string,
    reportId: string,
    at: string,
    reason: string,
    event: PendingEvent,
  ): Promise<ReportRecord | null> {
    return this.outbox.update(
      this.c.reports,
      { id: reportId, organization_id: organizationId, status: "generating" },
      { status: "failed", completed_at: at, failure_reason: reason },
      [event],
    );
  }

  /** Reports of every organization still generating that were requested before `cutoff`, oldest first. */
  generatingSince(cutoff: string, limit: number): Promise<ReportRecord[]> {
    return this.c.reports.find(
      { status: "generating", created_at: { $lt: cutoff } },
      { sort: { created_at: 1 }, limit },
    );
  }

  // Report files

  async saveFile(reportId: string, content: Buffer): Promise<number> {
    await this.c.chunks.deleteMany({ report_id: reportId });
    let index = 0;
    for (let offset = 0; offset < content.length || index === 0; offset += CHUNK_BYTES) {
      const part = content.subarray(offset, offset + CHUNK_BYTES);
      await this.c.chunks.insertOne({
        id: `${reportId}.${index}`,
        report_id: reportId,
        index,
        data: part.toString("base64"),
      });
      index++;
    }
    return index;
  }

  async loadFile(reportId: string): Promise<Buffer> {
    const parts = await this.c.chunks.find({ report_id: reportId }, { sort: { index: 1 } });
    return Buffer.concat(parts.map((p) => Buffer.from(p.data, "base64")));
  }
}

async function insertOnce<T extends { id: string }>(collection: Collection<T>, doc: T): Promise<void> {
  try {
    await collection.insertOne(doc);
  } catch (err) {
    if (!(err instanceof DuplicateKeyError)) throw err;
  }
}
