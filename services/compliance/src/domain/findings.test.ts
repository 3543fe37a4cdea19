import { describe, expect, it } from "@jest/globals";
import { catalogById } from "./catalogs/index.js";
import { assembleEvidence, type BypassFact, type EvaluationFact, type ViolationFact } from "./evidence.js";
import { identityOf, trackFindings, type TriageFact } from "./findings.js";
import { buildAssessmentResults, buildPoam } from "./oscal.js";
import { POLICIES } from "../../test/fixtures.js";

const SECRET = "aws-credentials";
const evaluation = (id: string, day: number, policies = [SECRET]): EvaluationFact => ({
  id,
  repository: "acme/deploy",
  ref: "main",
  completed_at: `2026-03-${String(day).padStart(2, "0")}T10:00:00.000Z`,
  passed: false,
  policies,
});
const where = { policy_id: SECRET, rule_id: "aws-access-key-id", file: "deploy/.env" };
const violation = (evaluationId: string, line: number, fingerprint?: string): ViolationFact => ({
  id: `viol_${evaluationId}_${line}`,
  evaluation_id: evaluationId,
  ...where,
  severity: "error",
  line,
  message: "AWS access key id found in source code",
  ...(fingerprint ? { fingerprint } : {}),
});
const bypass = (e: EvaluationFact, line: number, fingerprint?: string): BypassFact => ({
  id: `byp_${e.id}_${line}`,
  evaluation_id: e.id,
  repository: e.repository,
  ref: e.ref,
  bypassed_at: e.completed_at,
  ...where,
  line,
  reason: "rotated later",
  ...(fingerprint ? { fingerprint } : {}),
});

const FP = "a".repeat(32);
const e1 = evaluation("eval_01", 2);
const e2 = evaluation("eval_02", 5);
const e3 = evaluation("eval_03", 9);

describe("finding states", () => {
  it("calls a violation silenced later with verdict-ignore suppressed, never fixed", () => {
    const [f] = trackFindings([e1, e2], [violation("eval_01", 3, FP)], [bypass(e2, 3, FP)]);
    expect(f).toMatchObject({
      status: "suppressed",
      reported: true,
      fingerprint: FP,
      suppressed_by: { evaluation_id: "eval_02", reason: "rotated later" },
      first_seen: { evaluation_id: "eval_01" },
      last_seen: { evaluation_id: "eval_02" },
    });
    expect(f!.fixed_by).toBeUndefined();
  });

  it("calls it fixed once a later evaluation that ran the policy no longer finds it at all", () => {
    const [f] = trackFindings([e1, e2, e3], [violation("eval_01", 3, FP)], [bypass(e2, 3, FP)]);
    expect(f).toMatchObject({ status: "fixed", fixed_by: { evaluation_id: "eval_03" } });
    // ...but not by an evaluation that did not run the policy.
    const other = evaluation("eval_03", 9, ["sql-injection"]);
    expect(trackFindings([e1, e2, other], [violation("eval_01", 3, FP)], [bypass(e2, 3, FP)])[0]!.status).toBe(
      "suppressed",
    );
  });

  it("is not fixed by a later evaluation that did not read its file (a change to other files)", () => {
    const others = { ...e3, scanned_paths: ["src/app.js"] };
    const [f] = trackFindings([e1, e2, others], [violation("eval_01", 3, FP)], [bypass(e2, 3, FP)]);
    expect(f).toMatchObject({ status: "suppressed", suppressed_by: { evaluation_id: "eval_02" } });
    expect(f!.fixed_by).toBeUndefined();
    const open = trackFindings([e1, others], [violation("eval_01", 3, FP)], []);
    expect(open[0]).toMatchObject({ status: "open" });
    // The next one that reads the file and no longer finds it fixes it.
    const e4 = { ...evaluation("eval_04", 12), scanned_paths: ["deploy/.env"] };
    expect(trackFindings([e1, others, e4], [violation("eval_01", 3, FP)], [])[0]).toMatchObject({
      status: "fixed",
      fixed_by: { evaluation_id: "eval_04" },
    });
  });

  it("follows the fingerprint: a moved line stays open; a new secret on the same line is a new finding", () => {
    const moved = trackFindings([e1, e2], [violation("eval_01", 3, FP), violation("eval_02", 7, FP)], []);
    expect(moved).toHaveLength(1);
    expect(moved[0]).toMatchObject({ status: "open", line: 7 });
    const NEW = "b".repeat(32);
    const changed = trackFindings([e1, e2], [violation("eval_01", 3, FP), violation("eval_02", 3, NEW)], []);
    expect(changed.map((f) => [f.fingerprint, f.status])).toEqual(
      expect.arrayContaining([
        [FP, "fixed"],
        [NEW, "open"],
      ]),
    );
  });

  it("reopens a suppressed finding that is reported again", () => {
    const [f] = trackFindings(
      [e1, e2, e3],
      [violation("eval_01", 3, FP), violation("eval_03", 3, FP)],
      [bypass(e2, 3, FP)],
    );
    expect(f).toMatchObject({ status: "open", last_seen: { evaluation_id: "eval_03" } });
    expect(f!.suppressed_by).toBeUndefined();
  });

  it("matches records stored before fingerprints by location", () => {
    // A violation projected before fingerprints, suppressed by a later evaluation that has one.
    const tracked = trackFindings([e1, e2], [violation("eval_01", 3)], [bypass(e2, 3, FP)]);
    expect(tracked.find((f) => f.reported)).toMatchObject({
      status: "suppressed",
      fingerprint: "",
      last_seen: { evaluation_id: "eval_02" },
      suppressed_by: { evaluation_id: "eval_02", reason: "rotated later" },
    });
  });

  it("tracks a finding suppressed from the start as suppressed and never reported", () => {
    const [f] = trackFindings([e1], [], [bypass(e1, 3, FP)]);
    expect(f).toMatchObject({ status: "suppressed", reported: false });
  });
});

describe("triage", () => {
  const decision = (state: TriageFact["state"], expires_at?: string): TriageFact => ({
    repository: "acme/deploy",
    identity: identityOf({ ...where, fingerprint: FP }),
    state,
    reason: "test fixture",
    ...(expires_at ? { expires_at } : {}),
    updated_at: "2026-03-03T00:00:00.000Z",
  });
  const now = "2026-03-10T00:00:00.000Z";

  it("overrides an open or suppressed finding, for every ref of the repository", () => {
    const branch = { ...e2, id: "eval_b", ref: "feature/x" };
    const tracked = trackFindings([e1, branch], [violation("eval_01", 3, FP), violation("eval_b", 3, FP)], [], {
      facts: [decision("false_positive")],
      now,
    });
    expect(tracked.map((f) => [f.ref, f.status, f.triage?.reason])).toEqual([
      ["feature/x", "false_positive", "test fixture"],
      ["main", "false_positive", "test fixture"],
    ]);
    const suppressed = trackFindings([e1, e2], [violation("eval_01", 3, FP)], [bypass(e2, 3, FP)], {
      facts: [decision("accepted_risk", "2026-04-01T00:00:00.000Z")],
      now,
    });
    expect(suppressed[0]).toMatchObject({ status: "accepted_risk", suppressed_by: { evaluation_id: "eval_02" } });
  });

  it("reopens an accepted risk once it expires, and leaves a fixed finding fixed", () => {
    const expired = trackFindings([e1], [violation("eval_01", 3, FP)], [], {
      facts: [decision("accepted_risk", "2026-03-09T23:59:59.000Z")],
      now,
    });
    expect(expired[0]).toMatchObject({ status: "open" });
    expect(expired[0]!.triage).toBeUndefined();
    const fixed = trackFindings([e1, e2], [violation("eval_01", 3, FP)], [], {
      facts: [decision("false_positive")],
      now,
    });
    expect(fixed[0]).toMatchObject({ status: "fixed" });
  });
});

describe("finding states in the evidence and OSCAL", () => {
  const evidence = assembleEvidence({
    organizationId: "org_test",
    reportId: "report_test",
    range: { start: "2026-03-01", end: "2026-03-31" },
    generatedAt: "2026-04-01T08:00:00.000Z",
    catalogs: [catalogById("soc2")!],
    policies: POLICIES,
    evaluations: [e1, e2],
    violations: [violation("eval_01", 3, FP)],
    bypasses: [bypass(e2, 3, FP)],
  });
  const fw = evidence.frameworks[0]!;
  const cc61 = fw.controls.find((c) => c.control.id === "CC6.1")!;
  const ctx = { organizationId: "org_test", organizationName: "Acme", apiBaseUrl: "https://verdict.test/v1" };

  it("lists the suppressed violation under suppressed, not fixed", () => {
    expect(cc61.fixed).toEqual([]);
    expect(cc61.open).toEqual([]);
    expect(cc61.suppressed.map((v) => v.file)).toEqual(["deploy/.env"]);
    expect(cc61.status).not.toBe("remediated");
  });

  it("gives it an OSCAL risk awaiting a deviation decision, never a closed one, and a POA&M item not done", () => {
    const result = (buildAssessmentResults(ctx, evidence, fw)["assessment-results"] as any).results[0];
    const risks = (result.risks as any[]).filter((r) => r.props.some((p: any) => p.value === "violation"));
    expect(risks.length).toBeGreaterThan(0);
    for (const r of risks) {
      expect(r.status).toBe("deviation-requested");
      expect(r.statement).toMatch(/^Suppressed, not fixed/);
      expect(r.remediations[0].lifecycle).toBe("recommendation");
      expect(r.props).toEqual(expect.arrayContaining([expect.objectContaining({ name: "fingerprint", value: FP })]));
    }
    const items = (buildPoam(ctx, evidence, fw)["plan-of-action-and-milestones"] as any)["poam-items"] as any[];
    const status = items.map((i) => i.props.find((p: any) => p.name === "remediation-status")?.value);
    expect(status).toContain("suppressed");
    expect(status).not.toContain("completed");
  });
});
