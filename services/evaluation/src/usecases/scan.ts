// The core every evaluation runs, synchronous or deferred: resolve the policies, take the
// (cached) engine, scan each file once, add it all up.
import { isScanned, MAX_VIOLATIONS, summarize, type Outcome } from "../domain/evaluation.js";
import type { FileScan } from "../domain/engine.js";
import type { EvaluationDeps } from "../deps.js";
import type { CachedEngine } from "../engineCache.js";

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
  const [{ engine, policyIds }, settings] = await Promise.all([engineFor(deps, organizationId, requested), deps.orgSettings.get(organizationId)]);
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
  return { ...summarize(files.length, scans), policies: policyIds };
}

/**
 * The compiled engine for what the request resolves to now. The policy service is told the
 * version this request resolved to last time; while that is still current it answers
 * "unchanged" without the patterns, and the cached engine runs.
 */
async function engineFor(deps: EvaluationDeps, organizationId: string, requested: string[]): Promise<CachedEngine> {
  const known = deps.engines.lastVersion(organizationId, requested);
  const resolve = (knownVersion?: string) =>
    deps.policy.resolvePolicies({ organization_id: organizationId, policy_ids: requested, known_version: knownVersion });
  let res = await resolve(known);
  let cached = res.unchanged ? deps.engines.peek(organizationId, res.version) : undefined;
  // Evicted since (or forgotten after a policy.changed event): ask for the policies themselves.
  if (res.unchanged && !cached) res = await resolve();
  cached ??= deps.engines.get(organizationId, res.version, res.policies);
  deps.engines.remember(organizationId, requested, res.version);
  return cached;
}
