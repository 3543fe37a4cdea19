import { describe, expect, it } from "@jest/globals";
import type { Evaluation } from "@verdict/sdk";
import { applyBaseline, baselineOf, parseBaseline, type Baseline } from "./baseline.js";
import type { MergedEvaluation } from "./batches.js";

const violation = (fingerprint: string, over: Partial<Evaluation["violations"][number]> = {}) => ({
  id: `viol_${fingerprint}`,
  policy_id: "aws-credentials",
  rule_id: "aws-access-key-id",
  severity: "error" as const,
  file: "src/a.js",
  line: 1,
  column: 1,
  message: "m",
  code_snippet: "AKIA****",
  suggestion: "",
  fingerprint,
  ...over,
});
const evaluation = (violations: ReturnType<typeof violation>[]): MergedEvaluation => ({
  id: "eval_1",
  evaluations: ["eval_1"],
  status: "completed",
  repository: "acme/app",
  ref: "main",
  base_ref: null,
  created_at: "2026-01-01T00:00:00Z",
  completed_at: "2026-01-01T00:00:01Z",
  passed: !violations.some((v) => v.severity === "error"),
  summary: {
    total_files: 2,
    total_violations: violations.length,
    errors: violations.filter((v) => v.severity === "error").length,
    warnings: violations.filter((v) => v.severity === "warning").length,
    suppressed: 0,
    skipped_files: 0,
  },
  violations,
  suppressions: [],
});
const now = new Date("2026-06-01T00:00:00Z");

describe("baselines", () => {
  it("count repeats of one value in one file, and keep no snippet", () => {
    const b = baselineOf([violation("aa"), violation("aa", { line: 5 }), violation("bb", { file: "b.js" })], now);
    expect(b.findings.map((f) => [f.file, f.fingerprint, f.count])).toEqual([
      ["b.js", "bb", 1],
      ["src/a.js", "aa", 2],
    ]);
    expect(JSON.stringify(b)).not.toContain("AKIA");
  });

  it("accept as many occurrences as counted: one more is reported, and the verdict follows what is left", () => {
    const base = baselineOf([violation("aa"), violation("ww", { severity: "warning" })], now);
    const r = applyBaseline(
      evaluation([violation("aa"), violation("aa", { line: 9 }), violation("ww", { severity: "warning" })]),
      base,
      new Set(["src/a.js"]),
      now,
    );
    expect(r.baselined).toBe(2);
    expect(r.evaluation.violations.map((v) => v.line)).toEqual([9]);
    expect(r.evaluation.summary).toMatchObject({ total_violations: 1, errors: 1, warnings: 0 });
    expect(r.evaluation.passed).toBe(false);
    const all = applyBaseline(evaluation([violation("aa")]), base, new Set(), now);
    expect(all.evaluation.passed).toBe(true);
  });

  it("name stale entries of evaluated files only, and do not apply expired ones", () => {
    const base: Baseline = {
      version: 1,
      created_at: now.toISOString(),
      findings: [
        { fingerprint: "gone", policy_id: "p", rule_id: "r", file: "src/a.js", line: 3, count: 1 },
        { fingerprint: "elsewhere", policy_id: "p", rule_id: "r", file: "other.js", line: 3, count: 1 },
        {
          fingerprint: "aa",
          policy_id: "p",
          rule_id: "r",
          file: "src/a.js",
          line: 1,
          count: 1,
          expires_at: "2026-05-01T00:00:00Z",
        },
      ],
    };
    const r = applyBaseline(evaluation([violation("aa")]), base, new Set(["src/a.js"]), now);
    expect(r.stale.map((e) => e.fingerprint)).toEqual(["gone"]);
    expect(r.expired.map((e) => e.fingerprint)).toEqual(["aa"]);
    expect(r.baselined).toBe(0);
    expect(r.evaluation.passed).toBe(false);
  });

  it("refuse a file that is not a version 1 baseline", () => {
    expect(parseBaseline("[")).toEqual({ error: "not JSON" });
    expect(parseBaseline('{"version":2,"findings":[]}')).toEqual({ error: "not a version 1 baseline" });
    expect(parseBaseline('{"version":1,"findings":[{"fingerprint":"a","file":"f","count":0}]}')).toMatchObject({
      error: expect.stringMatching(/^findings\[0\]/),
    });
  });
});
