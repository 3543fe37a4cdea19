import { describe, expect, it } from "@jest/globals";
import { catalogById } from "./catalogs/index.js";
import { evidencedPolicies, scopeTest, scopeTests } from "./applicability.js";
import { assembleEvidence, type EvaluationFact, type PolicyInfo, type ViolationFact } from "./evidence.js";
import { EVALUATIONS, POLICIES, VIOLATIONS, sampleEvidence } from "../../test/fixtures.js";

// permissive-cors as the policy service resolves it: JavaScript, Python, Go, Java and nginx files;
// one rule for JavaScript only, one for any path.
const CORS: PolicyInfo = {
  id: "permissive-cors",
  name: "Permissive CORS with credentials",
  enabled: true,
  severity: "warning",
  frameworks: ["soc2:CC6.6"],
  rules: ["js-cors-credentials-any-origin", "cors-wildcard-origin-with-credentials"],
  scope: {
    file_scope: [
      String.raw`(?i)\.(?:[cm]?jsx?|vue|svelte|html?|ejs|hbs)$`,
      String.raw`(?i)\.pyw?$`,
      String.raw`(?i)\.go$`,
      String.raw`(?i)\.java$`,
      String.raw`(?i)\.conf$`,
    ],
    rule_paths: [[String.raw`\.[cm]?[jt]sx?$`], []],
    exclude_paths: ["vendor/**"],
  },
};

const evaluation = (id: string, at: string, scanned: string[] | undefined, policies = ["permissive-cors"]) =>
  ({
    id,
    repository: "acme/site",
    ref: "main",
    completed_at: at,
    passed: true,
    policies,
    ...(scanned ? { scanned_paths: scanned } : {}),
  }) satisfies EvaluationFact;

/** One control's evidence in March 2026. */
function controlIn(
  catalogId: string,
  controlId: string,
  policies: PolicyInfo[],
  evaluations: EvaluationFact[],
  violations: ViolationFact[] = [],
) {
  const ev = assembleEvidence({
    organizationId: "org_test",
    reportId: "report_test",
    range: { start: "2026-03-01", end: "2026-03-31" },
    generatedAt: "2026-04-01T00:00:00.000Z",
    catalogs: [catalogById(catalogId)!],
    policies,
    evaluations,
    violations,
    bypasses: [],
  });
  return ev.frameworks[0]!.controls.find((c) => c.control.id === controlId)!;
}

const cc66 = (evaluations: EvaluationFact[], policies: PolicyInfo[] = [CORS]) =>
  controlIn("soc2", "CC6.6", policies, evaluations);

describe("could apply", () => {
  it("needs the file scope, a rule whose paths admit the file, and no exclude glob", () => {
    const applies = scopeTest(CORS.scope!);
    expect(applies("src/server.js")).toBe(true);
    expect(applies("api/app.PY")).toBe(true);
    expect(applies("deploy/nginx.conf")).toBe(true);
    // Outside the languages it is written for, although one rule has no paths.
    expect(applies("README.md")).toBe(false);
    expect(applies("docs/cors.txt")).toBe(false);
    // Excluded by the organization's exclude_paths.
    expect(applies("vendor/lib/server.js")).toBe(false);
    // A policy without rules applies nowhere; an empty file scope is any file.
    expect(scopeTest({ file_scope: [], rule_paths: [], exclude_paths: [] })("a.js")).toBe(false);
    expect(scopeTest({ file_scope: [], rule_paths: [[]], exclude_paths: [] })("notes.txt")).toBe(true);
    // Rule paths alone narrow it too.
    const jsOnly = scopeTest({ file_scope: [], rule_paths: [[String.raw`\.js$`]], exclude_paths: [] });
    expect([jsOnly("a.js"), jsOnly("a.py")]).toEqual([true, false]);
  });

  it("counts an evaluation as evidence only for the policies that ran and could apply to a file it read", () => {
    const tests = scopeTests([CORS]);
    const of = (e: EvaluationFact, t = tests) => [...evidencedPolicies(e, t)];
    expect(of(evaluation("e1", "2026-03-02T00:00:00Z", ["README.md", "src/app.js"]))).toEqual(["permissive-cors"]);
    // The policy did not run.
    expect(of(evaluation("e2", "2026-03-02T00:00:00Z", ["src/app.js"], []))).toEqual([]);
    // Recorded before scanned paths were: nothing says what it read.
    expect(of(evaluation("e3", "2026-03-02T00:00:00Z", undefined))).toEqual([]);
    // A policy without a scope (not enabled now) gives none.
    expect(of(evaluation("e4", "2026-03-02T00:00:00Z", ["src/app.js"]), new Map())).toEqual([]);
  });
});

describe("control status with evidence semantics", () => {
  it("is no evidence when the control's policy only ran over a README, and passed once it read a JavaScript file", () => {
    const readme = evaluation("eval_1", "2026-03-02T00:00:00.000Z", ["README.md"]);
    expect(cc66([readme])).toMatchObject({ status: "no-evidence", covered: true, evaluations: [] });
    const js = evaluation("eval_2", "2026-03-03T00:00:00.000Z", ["README.md", "src/server.js"]);
    expect(cc66([readme, js])).toMatchObject({
      status: "passed",
      evaluations: ["eval_2"],
      repositories: ["acme/site"],
    });
  });

  it("is no evidence when the policy that ran is disabled now, or when the evaluation predates scanned paths", () => {
    const js = evaluation("eval_2", "2026-03-03T00:00:00.000Z", ["src/server.js"]);
    const { scope: _scope, ...disabled } = CORS;
    expect(cc66([js], [{ ...disabled, enabled: false }]).status).toBe("no-evidence");
    expect(cc66([evaluation("eval_0", "2026-03-01T00:00:00.000Z", undefined)]).status).toBe("no-evidence");
  });

  it("lists only the evaluations that are evidence: a policy excluded from tests gains none from a test file", () => {
    // eval_03 ran sql-injection over README.md and test/fixtures/keys.js only.
    const ev = sampleEvidence([catalogById("nist-ssdf")!]);
    const pw72 = ev.frameworks[0]!.controls.find((c) => c.control.id === "PW.7.2")!;
    expect(pw72.evaluations).toEqual(["eval_01", "eval_02"]);
    expect(EVALUATIONS.map((e) => e.id)).toContain("eval_03");
    // Violations still count whether or not the policy is enabled now.
    const withoutScopes = POLICIES.map(({ scope: _s, ...p }) => p);
    const failing = controlIn("nist-ssdf", "PW.7.2", withoutScopes, EVALUATIONS, VIOLATIONS);
    expect(failing.status).toBe("failing");
  });
});
