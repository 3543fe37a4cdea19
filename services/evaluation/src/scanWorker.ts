// Entry point of a scan worker thread (piscina calls the default export with each job).
import { EngineCache } from "./engineCache.js";
import { runScanJob, type ScanJob } from "./scanJob.js";
import type { Outcome } from "./domain/evaluation.js";

// Fewer than the request thread's policy sets: every thread holds its own compiled copies.
const engines = new EngineCache(16);

export default function scan(job: ScanJob): Outcome {
  return runScanJob(engines, job);
}
