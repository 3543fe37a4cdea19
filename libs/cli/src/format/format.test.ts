import { describe, expect, it } from "@jest/globals";
import type { Evaluation } from "@verdict/sdk";
import { colors } from "./colors.js";
import { toSarif } from "./sarif.js";
import { formatEvaluation } from "./text.js";

const violation = (over: Partial<Evaluation["violations"][number]> = {}): Evaluation["violations"][number] => ({
  id: "viol_1",
  policy_id: "aws-credentials",
  rule_id: "aws-access-key-id",
  severity: "error",
  file: "src/config.js",
  line: 2,
  column: 20,
  message: "AWS access key id found in source code",
  code_snippet: 'const accessKey = "AKIA****";',
  suggestion: "Rotate the key.",
  fingerprint: "0123456789abcdef0123456789abcdef",
  ...over,
});

const evaluation = (violations: Evaluation["violations"]): Evaluation => ({
  id: "eval_1",
  status: "completed",
  repository: "acme/payments",
  ref: "main",
  base_ref: null,
  created_at: "2026-01-01T00:00:00Z",
  completed_at: "2026-01-01T00:00:01Z",
  passed: violations.every((v) => v.severity !== "error"),
  summary: {
    total_files: 1,
    total_violations: violations.length,
    errors: violations.filter((v) => v.severity === "error").length,
    warnings: 0,
    suppressed: 0,
    skipped_files: 0,
  },
  violations,
  suppressions: [],
});

describe("text output", () => {
  it("prints file:line:col severity policy message and the snippet, without colours when disabled", () => {
    const out = formatEvaluation(evaluation([violation()]), colors(false), { blocking: true });
    expect(out.split("\n")).toEqual([
      "src/config.js:2:20 error aws-credentials AWS access key id found in source code",
      '    const accessKey = "AKIA****";',
      "failed: 1 error, 0 warnings in 1 file eval_1",
    ]);
  });

  it("says what the provider answered when the credential was verified live, and nothing when not checked", () => {
    const out = (verification: "live" | "revoked" | "unknown" | "not_checked") =>
      formatEvaluation(evaluation([violation({ verification })]), colors(false), { blocking: true }).split("\n")[0];
    expect(out("live")).toBe(
      "src/config.js:2:20 error aws-credentials AWS access key id found in source code [live: the provider accepted it]",
    );
    expect(out("revoked")).toMatch(/code \[revoked: the provider refused it\]$/);
    expect(out("unknown")).toMatch(/code \[liveness unknown\]$/);
    expect(out("not_checked")).toMatch(/code$/);
  });
});

describe("SARIF", () => {
  it("carries live verification's answer in a result's properties", () => {
    const sarif = toSarif(
      evaluation([violation({ verification: "live", verification_checked_at: "2026-01-01T00:00:01Z" }), violation()]),
      new Map(),
      { version: "1", informationUri: "http://x" },
    );
    expect(sarif.runs[0]!.results!.map((r) => r.properties)).toEqual([
      {
        "verdict-rule": "aws-access-key-id",
        "verdict-violation": "viol_1",
        "verdict-verification": "live",
        "verdict-verification-checked-at": "2026-01-01T00:00:01Z",
      },
      { "verdict-rule": "aws-access-key-id", "verdict-violation": "viol_1" },
    ]);
  });

  const fp = (v: Evaluation["violations"]) =>
    (toSarif(evaluation(v), new Map(), { version: "1", informationUri: "http://x" }).runs[0]!.results ?? []).map(
      (r) => r.partialFingerprints!["verdictFingerprint/v1"],
    );

  it("keeps a finding's fingerprint when its line moves, and tells identical lines apart", () => {
    expect(fp([violation({ line: 7 })])).toEqual(fp([violation()]));
    const [a, b] = fp([violation(), violation({ id: "viol_2", line: 9 })]);
    expect(a).not.toEqual(b);
  });

  it("falls back to the finding's message and suggestion when the policy could not be read", () => {
    const log = toSarif(evaluation([violation()]), new Map([["aws-credentials", undefined]]), {
      version: "1",
      informationUri: "http://x",
    });
    const rule = log.runs[0]!.tool.driver.rules![0]!;
    expect(rule).toMatchObject({
      id: "aws-credentials",
      help: { text: expect.stringContaining("Rotate the key.") },
      defaultConfiguration: { level: "error" },
    });
    expect(log.runs[0]!.columnKind).toBe("unicodeCodePoints");
  });
});
