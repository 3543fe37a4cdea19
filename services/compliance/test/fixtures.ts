// Shared fixtures of the domain tests: a small evidence set with a violation fixed, one still
// open and a bypass, over the real catalogs plus a catalog whose control ids start with digits;
// and one that adds every deviation (suppressed, accepted risk, false positive).
import type { Catalog } from "../src/domain/catalogs/types.js";
import { identityOf, type TriageFact } from "../src/domain/findings.js";
import {
  assembleEvidence,
  type BypassFact,
  type EvaluationFact,
  type PolicyInfo,
  type ViolationFact,
} from "../src/domain/evidence.js";

/** Ids like HIPAA's (digit-leading, with parentheses): OSCAL tokens need a prefix. */
export const DIGIT_CATALOG: Catalog = {
  id: "hipaa-test",
  name: "HIPAA Security Rule (test subset)",
  version: "45 CFR 164 Subpart C",
  kind: "regulation",
  source_url: "https://www.hhs.gov/hipaa/for-professionals/security/index.html",
  controls: [
    { id: "164.312(a)(1)", title: "Access control", group: "164.312" },
    { id: "164.312(e)(1)", title: "Transmission security", group: "164.312" },
    { id: "164.308(a)(1)(ii)(B)", title: "Risk management", group: "164.308" },
  ],
};

export const POLICIES: PolicyInfo[] = [
  {
    id: "aws-credentials",
    name: "AWS credentials",
    enabled: true,
    severity: "error",
    frameworks: ["nist-ssdf:PW.5.1", "soc2:CC6.1", "owasp-asvs:V2.10.4", "hipaa-test:164.312(a)(1)"],
    rules: ["aws-access-key-id"],
    // A secret policy: any text file.
    scope: { file_scope: [], rule_paths: [[]], exclude_paths: [] },
  },
  {
    id: "sql-injection",
    name: "SQL injection",
    enabled: true,
    severity: "error",
    frameworks: ["nist-ssdf:PW.7.2", "owasp-asvs:V5.3.4", "soc2:CC8.1"],
    rules: ["string-concat"],
    // Written for JavaScript; the organization excludes its tests.
    scope: { file_scope: [String.raw`(?i)\.[cm]?jsx?$`], rule_paths: [[]], exclude_paths: ["test/**"] },
  },
  {
    id: "cleartext-http",
    name: "Cleartext HTTP",
    enabled: false,
    severity: "warning",
    frameworks: ["soc2:CC6.7", "hipaa-test:164.312(e)(1)"],
    rules: ["http-url"],
  },
];

export const EVALUATIONS: EvaluationFact[] = [
  {
    id: "eval_01",
    scanned_paths: ["src/config.js", "src/db.js"],
    repository: "acme/payments",
    ref: "main",
    completed_at: "2026-03-02T10:00:00.000Z",
    passed: false,
    policies: ["aws-credentials", "sql-injection"],
  },
  {
    id: "eval_02",
    scanned_paths: ["src/config.js", "src/db.js"],
    repository: "acme/payments",
    ref: "main",
    completed_at: "2026-03-05T10:00:00.000Z",
    passed: false,
    policies: ["aws-credentials", "sql-injection"],
  },
  {
    id: "eval_03",
    scanned_paths: ["README.md", "test/fixtures/keys.js"],
    repository: "acme/web",
    ref: "feature/login",
    completed_at: "2026-03-06T10:00:00.000Z",
    passed: true,
    policies: ["aws-credentials", "sql-injection"],
  },
];

export const VIOLATIONS: ViolationFact[] = [
  // Reported by eval_01 and gone in eval_02: fixed.
  {
    id: "viol_a",
    evaluation_id: "eval_01",
    policy_id: "aws-credentials",
    rule_id: "aws-access-key-id",
    severity: "error",
    file: "src/config.js",
    line: 3,
    message: "AWS access key id found in source code",
  },
  // Reported by both: still open.
  {
    id: "viol_b",
    evaluation_id: "eval_01",
    policy_id: "sql-injection",
    rule_id: "string-concat",
    severity: "error",
    file: "src/db.js",
    line: 10,
    message: "SQL built by string concatenation",
  },
  {
    id: "viol_c",
    evaluation_id: "eval_02",
    policy_id: "sql-injection",
    rule_id: "string-concat",
    severity: "error",
    file: "src/db.js",
    line: 12,
    message: "SQL built by string concatenation",
  },
];

export const BYPASSES: BypassFact[] = [
  {
    id: "byp_1",
    evaluation_id: "eval_03",
    repository: "acme/web",
    ref: "feature/login",
    bypassed_at: "2026-03-06T10:00:00.000Z",
    policy_id: "aws-credentials",
    rule_id: "aws-access-key-id",
    file: "test/fixtures/keys.js",
    line: 1,
    reason: "test fixture, not a real key",
  },
];

const REPORT = {
  organizationId: "org_test",
  reportId: "report_test",
  range: { start: "2026-03-01", end: "2026-03-31" },
  generatedAt: "2026-04-01T08:00:00.000Z",
  policies: POLICIES,
};

export function sampleEvidence(catalogs: Catalog[]) {
  return assembleEvidence({
    ...REPORT,
    catalogs,
    evaluations: EVALUATIONS,
    violations: VIOLATIONS,
    bypasses: BYPASSES,
  });
}

// acme/deploy's deploy/.env: three keys found by eval_04; by eval_05 one is silenced in code
// (suppressed), one a member accepted as a risk until after the report, one a false positive.
const DEPLOY = { repository: "acme/deploy", ref: "main", scanned_paths: ["deploy/.env"], passed: false };
const KEY = { policy_id: "aws-credentials", rule_id: "aws-access-key-id", file: "deploy/.env" };
const FPS = { suppressed: "1".repeat(32), accepted: "2".repeat(32), falsePositive: "3".repeat(32) };
const deployKey = (evaluationId: string, line: number, fingerprint: string): ViolationFact => ({
  id: `viol_${evaluationId}_${line}`,
  evaluation_id: evaluationId,
  ...KEY,
  severity: "error",
  line,
  message: "AWS access key id found in source code",
  fingerprint,
});
const triage = (state: TriageFact["state"], fingerprint: string, expires_at?: string): TriageFact => ({
  repository: DEPLOY.repository,
  identity: identityOf({ ...KEY, fingerprint }),
  state,
  reason: state === "accepted_risk" ? "rotated with the vault migration" : "an example key from the AWS docs",
  ...(expires_at ? { expires_at } : {}),
  updated_at: "2026-03-12T09:00:00.000Z",
});

/** sampleEvidence plus a finding of each deviation state: suppressed, accepted risk, false positive. */
export function deviationEvidence(catalogs: Catalog[]) {
  const evaluations: EvaluationFact[] = [
    { id: "eval_04", ...DEPLOY, completed_at: "2026-03-10T10:00:00.000Z", policies: ["aws-credentials"] },
    { id: "eval_05", ...DEPLOY, completed_at: "2026-03-11T10:00:00.000Z", policies: ["aws-credentials"] },
  ];
  const found = [
    deployKey("eval_04", 2, FPS.suppressed),
    deployKey("eval_04", 5, FPS.accepted),
    deployKey("eval_04", 8, FPS.falsePositive),
    deployKey("eval_05", 6, FPS.accepted),
    deployKey("eval_05", 9, FPS.falsePositive),
  ];
  const silenced: BypassFact = {
    id: "byp_2",
    evaluation_id: "eval_05",
    ...DEPLOY,
    bypassed_at: "2026-03-11T10:00:00.000Z",
    ...KEY,
    line: 3,
    reason: "rotated next sprint",
    fingerprint: FPS.suppressed,
  };
  return assembleEvidence({
    ...REPORT,
    catalogs,
    evaluations: [...EVALUATIONS, ...evaluations],
    violations: [...VIOLATIONS, ...found],
    bypasses: [...BYPASSES, silenced],
    triage: [
      triage("accepted_risk", FPS.accepted, "2026-06-30T00:00:00.000Z"),
      triage("false_positive", FPS.falsePositive),
    ],
  });
}
