// Entry point of a scan worker thread (piscina calls the default export with each job).
import { workerData } from "node:worker_threads";
import { EngineCache } from "./engineCache.js";
import { runScanJob, type ScanJob, type ScanOutcome } from "./scanJob.js";
import { readWarmEntries } from "./warmEngines.js";

// Fewer than the request thread's policy sets: every thread holds its own compiled copies.
const engines = new EngineCache(16);

// Before this thread reports ready (piscina awaits the module), it compiles the policy sets that
// recent scans ran (see warmEngines.ts): a thread replacing one terminated at a deadline starts
// with the engines the other organizations need.
for (const entry of readWarmEntries((workerData as { warm?: SharedArrayBuffer } | undefined)?.warm)) {
  try {
    engines.get(entry.version, entry.policies);
  } catch {
    // A set that no longer compiles is compiled (and fails) with its next scan instead.
  }
}

export default function scan(job: ScanJob): ScanOutcome {
  return runScanJob(engines, job);
}
