// The core every evaluation runs, synchronous or deferred: resolve the policies, take the
// (cached) engine, scan each file once, add it all up.
import { isScanned, MAX_VIOLATIONS, summarize, type Outcome } from "../domain/evaluation.js";
import type { FileScan } from "../domain/engine.js";
import type { EvaluationDeps } from "../deps.js";

export interface FileToScan {
  path: string;
  /** UTF-8 text, as bytes: the engine scans them as they are. */
  content: Buffer;
  status: string;
}

export interface ScanResult extends Outcome {
  /** Ids of the policies that ran. */
  policies: string[];
}

export async function scanChange(deps: EvaluationDeps, organizationId: string, requested: string[], files: FileToScan[]): Promise<ScanResult> {
  // Errors from the policy service (unknown policy ids: 422 naming `policies[i]`) reach the
  // caller unchanged.
  const [{ policies, version }, settings] = await Promise.all([
    deps.policy.resolvePolicies({ organization_id: organizationId, policy_ids: requested }),
    deps.orgSettings.get(organizationId),
  ]);
  const engine = deps.engines.get(organizationId, version, policies);
  const scans: FileScan[] = [];
  // Every finding is counted, but only the first MAX_VIOLATIONS become violations.
  let room = MAX_VIOLATIONS;
  for (const file of files) {
    if (!isScanned(file.status)) {
      scans.push({ skipped: "removed", findings: [], suppressions: [], matched: 0, bySeverity: {} });
      continue;
    }
    const scan = engine.scan(file.path, file.content, { allowSuppression: settings.allowInlineSuppression, limit: room });
    room -= scan.findings.length;
    scans.push(scan);
  }
  return { ...summarize(files.length, scans), policies: policies.map((p) => p.id) };
}
