import { describe, expect, it } from "@jest/globals";
import { bypassOutcome } from "./bypass.js";
import type { Finding } from "./engine.js";
import type { Outcome } from "./evaluation.js";

const finding = (file: string, line: number, severity: "error" | "warning"): Finding => ({
  policy_id: severity === "error" ? "aws-credentials" : "debug-statements",
  rule_id: "r1",
  severity,
  file,
  line,
  column: 1,
  message: "m",
  code_snippet: "",
  suggestion: "",
  fingerprint: "f".repeat(32),
});

const outcome = (kept: Finding[], total = kept.length): Outcome => ({
  summary: {
    total_files: 2,
    total_violations: total,
    errors: kept.filter((f) => f.severity === "error").length + (total - kept.length),
    warnings: kept.filter((f) => f.severity === "warning").length,
    suppressed: 1,
    skipped_files: 0,
  },
  passed: false,
  kept,
  suppressions: [
    { policy_id: "p", rule_id: "r", file: "old.js", line: 3, reason: "inline", fingerprint: "e".repeat(32) },
  ],
  scanned_paths: ["old.js", "new.js"],
});

describe("bypassOutcome", () => {
  it("moves every finding to the suppressions with the reason, and passes", () => {
    const o = bypassOutcome(outcome([finding("a.js", 2, "error"), finding("b.py", 5, "warning")]), "revoked already");
    expect(o.passed).toBe(true);
    expect(o.kept).toEqual([]);
    expect(o.summary).toEqual({
      total_files: 2,
      total_violations: 0,
      errors: 0,
      warnings: 0,
      suppressed: 3,
      skipped_files: 0,
    });
    expect(o.suppressions).toEqual([
      { policy_id: "p", rule_id: "r", file: "old.js", line: 3, reason: "inline", fingerprint: "e".repeat(32) },
      {
        policy_id: "aws-credentials",
        rule_id: "r1",
        file: "a.js",
        line: 2,
        reason: "revoked already",
        fingerprint: "f".repeat(32),
      },
      {
        policy_id: "debug-statements",
        rule_id: "r1",
        file: "b.py",
        line: 5,
        reason: "revoked already",
        fingerprint: "f".repeat(32),
      },
    ]);
  });

  it("keeps counting the findings past the cap, which still fail", () => {
    const o = bypassOutcome(outcome([finding("a.js", 2, "error")], 3), "why");
    expect(o).toMatchObject({ passed: false, summary: { total_violations: 2, errors: 2, suppressed: 2 } });
  });

  it("leaves an outcome without findings as it is", () => {
    const clean = { ...outcome([]), passed: true };
    expect(bypassOutcome(clean, "why")).toBe(clean);
  });
});
