// What one scan on a worker thread receives and does: plain data in (the policies, not a compiled
// engine: RE2 objects cannot cross threads), an outcome out. Each thread keeps its own compiled
// engines, per organization and policy version, so a version is compiled once per thread.
import { isScanned, MAX_VIOLATIONS, summarize, type Outcome } from "./domain/evaluation.js";
import type { FileScan, PolicyToRun } from "./domain/engine.js";
import type { EngineCache } from "./engineCache.js";

export interface ScanJob {
  organizationId: string;
  version: string;
  policies: readonly PolicyToRun[];
  files: { path: string; content: Uint8Array; status: string }[];
  allowSuppression: boolean;
  /** Violations still to keep (the evaluation's earlier slices kept the rest); default: all. */
  room?: number;
}

/** A scan's outcome, and whether this thread had to compile the engine for it. */
export interface ScanOutcome extends Outcome {
  compiled: boolean;
}

export function runScanJob(engines: EngineCache, job: ScanJob): ScanOutcome {
  const compiled = !engines.peek(job.organizationId, job.version);
  const { engine } = engines.get(job.organizationId, job.version, job.policies);
  const scans: FileScan[] = [];
  // Every finding is counted, but only the first MAX_VIOLATIONS become violations.
  let room = job.room ?? MAX_VIOLATIONS;
  for (const file of job.files) {
    if (!isScanned(file.status)) {
      scans.push({ skipped: "removed", findings: [], suppressions: [], matched: 0, bySeverity: {} });
      continue;
    }
    // Structured cloning delivers a Uint8Array; the engine reads Buffers (no copy).
    const content = Buffer.from(file.content.buffer, file.content.byteOffset, file.content.byteLength);
    const scan = engine.scan(file.path, content, { allowSuppression: job.allowSuppression, limit: room });
    room -= scan.findings.length;
    scans.push(scan);
  }
  return { ...summarize(job.files.length, scans), compiled };
}
