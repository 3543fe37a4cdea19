// What one scan on a worker thread receives and does: plain data in (the policies, not a compiled
// engine: RE2 objects cannot cross threads), an outcome out. Each thread keeps its own compiled
// engines, per policy version, so a version is compiled once per thread.
//
// The policies travel as their JSON in shared memory (sharePolicies), encoded once per policy
// set: posting a job then copies nothing of them, and a thread decodes them only when it has not
// compiled that version yet. Structured cloning of the few hundred patterns of the built-in
// library with every 512 KiB slice cost both the request thread and the scan thread more CPU
// than scanning a tenth of the slice.
import { isScanned, MAX_VIOLATIONS, summarize, type Outcome } from "./domain/evaluation.js";
import type { FileScan, PolicyToRun } from "./domain/engine.js";
import type { EngineCache } from "./engineCache.js";

export interface ScanJob {
  organizationId: string;
  version: string;
  /** The policy set, from sharePolicies(). */
  policies: SharedArrayBuffer;
  files: { path: string; content: Uint8Array; status: string }[];
  allowSuppression: boolean;
  /** Violations still to keep (the evaluation's earlier slices kept the rest); default: all. */
  room?: number;
}

/** A scan's outcome, and whether this thread had to compile the engine for it. */
export interface ScanOutcome extends Outcome {
  compiled: boolean;
}

const shared = new WeakMap<readonly PolicyToRun[], SharedArrayBuffer>();

/** A policy set as scan jobs carry it: its JSON in a SharedArrayBuffer, encoded once per set object. */
export function sharePolicies(policies: readonly PolicyToRun[]): SharedArrayBuffer {
  let buffer = shared.get(policies);
  if (!buffer) {
    const json = Buffer.from(JSON.stringify(policies), "utf8");
    buffer = new SharedArrayBuffer(json.length);
    new Uint8Array(buffer).set(json);
    shared.set(policies, buffer);
  }
  return buffer;
}

/** The policies of a sharePolicies() buffer. */
export function readPolicies(buffer: SharedArrayBuffer): PolicyToRun[] {
  // TextDecoder does not read shared memory: copy the bytes out first.
  return JSON.parse(Buffer.from(new Uint8Array(buffer).slice().buffer).toString("utf8")) as PolicyToRun[];
}

export function runScanJob(engines: EngineCache, job: ScanJob): ScanOutcome {
  const cached = engines.peek(job.version);
  const compiled = !cached;
  const { engine } = cached ?? engines.get(job.version, readPolicies(job.policies));
  const scans: FileScan[] = [];
  const scanned: string[] = [];
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
    if (!scan.skipped && content.length > 0) scanned.push(file.path);
  }
  return { ...summarize(job.files.length, scans, scanned), compiled };
}
