// Fakes for the evaluation service's use cases, so their tests need no gRPC server, no sibling
// service and no worker thread: the built-in policies as the policy service resolves them (for
// an organization that changed nothing), and a scanner that runs each job on the calling thread
// with the code the scan threads run.
import { createHash } from "node:crypto";
import { createLogger, systemClock, type AsyncClient } from "@verdict/kit";
import { BUILTIN_POLICIES, resolveBuiltins } from "@verdict/policy";
import type { policyV1 } from "@verdict/proto";
import type { PoolRunOptions } from "@verdict/runtime";
import type { EvaluationDeps } from "../src/deps.js";
import type { EvaluationRecord } from "../src/repo.js";
import { EngineCache, type PolicySet } from "../src/engineCache.js";
import { runScanJob, type ScanJob, type ScanOutcome } from "../src/scanJob.js";

type ResolveRequest = policyV1.ResolvePoliciesRequest;
type ResolveResponse = policyV1.ResolvePoliciesResponse;
export type PolicyClient = Pick<AsyncClient<typeof policyV1.PolicyServiceService>, "resolvePolicies">;

/**
 * The policy service's ResolvePolicies for organizations with the built-ins as shipped: every
 * enabled one, or the named ones; "unchanged" without the patterns when the caller already holds
 * the version. Records each request and answer.
 */
export function builtinPolicyClient(): {
  client: PolicyClient;
  calls: { req: ResolveRequest; res: ResolveResponse }[];
} {
  const enabled = new Set(BUILTIN_POLICIES.filter((p) => p.enabled).map((p) => p.id));
  const all = resolveBuiltins().filter((p) => enabled.has(p.id));
  const calls: { req: ResolveRequest; res: ResolveResponse }[] = [];
  const client: PolicyClient = {
    async resolvePolicies(req) {
      const policies = req.policy_ids.length ? all.filter((p) => req.policy_ids.includes(p.id)) : all;
      const version = createHash("sha256").update(JSON.stringify(policies)).digest("base64url").slice(0, 22);
      const res: ResolveResponse =
        req.known_version && req.known_version === version
          ? { policies: [], version, unchanged: true }
          : { policies, version, unchanged: false };
      calls.push({ req, res });
      return res;
    },
  };
  return { client, calls };
}

/** The scan threads' work, on this thread: each job as runScanJob runs it, with its own engines. */
export function inThreadScanner(): EvaluationDeps["scanner"] {
  const engines = new EngineCache(16);
  const perKey = new Map<string, number>();
  return {
    inFlight: (key) => perKey.get(key) ?? 0,
    async run(key: string, job: ScanJob, opts: PoolRunOptions): Promise<ScanOutcome> {
      perKey.set(key, (perKey.get(key) ?? 0) + 1);
      try {
        await Promise.resolve(); // a job never finishes inside the call that submits it
        opts.onStart?.();
        return runScanJob(engines, job);
      } finally {
        perKey.set(key, perKey.get(key)! - 1);
      }
    },
  };
}

/** What scanChange needs of the service: the built-in policies, the given engines and scanner. */
export function scanDeps(
  engines: EngineCache<PolicySet>,
  scanner: EvaluationDeps["scanner"],
  policy: PolicyClient,
): EvaluationDeps {
  return {
    policy,
    engines,
    scanner,
    orgSettings: {
      get: async () => ({
        allowInlineSuppression: true,
        requireConnectedRepository: false,
        liveVerification: { enabled: false, providers: [] },
      }),
    },
    clock: systemClock,
    logger: createLogger("scan-test", "silent"),
  } as unknown as EvaluationDeps;
}

/** A pending evaluation of three files, as createEvaluation stores one, with `fields` set. */
export function pendingEvaluation(
  fields: Pick<EvaluationRecord, "id" | "organization_id"> & Partial<EvaluationRecord>,
): EvaluationRecord {
  const at = fields.created_at ?? new Date().toISOString();
  return {
    status: "pending",
    repository: "acme/big",
    ref: "main",
    base_ref: "",
    created_at: at,
    created_day: at.slice(0, 10),
    completed_at: null,
    passed: null,
    summary: { total_files: 3, total_violations: 0, errors: 0, warnings: 0, suppressed: 0, skipped_files: 0 },
    violations: [],
    failure_reason: null,
    policies: [],
    requested_policies: [],
    suppressions: [],
    deleted_at: null,
    ...fields,
  };
}
