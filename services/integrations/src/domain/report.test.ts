import { describe, expect, it } from "@jest/globals";
import { filesToRead, isText } from "./change.js";
import { checkConnectionInput, eventsPath } from "./connection.js";
import { buildReport, type EvaluatedViolation } from "./report.js";

const violation = (over: Partial<EvaluatedViolation> = {}): EvaluatedViolation => ({
  policy_id: "secrets",
  rule_id: "aws-access-key-id",
  severity: "error",
  file: "src/a.js",
  line: 2,
  message: "AWS access key id found",
  code_snippet: 'const k = "AKIA****";',
  fingerprint: "fp1",
  ...over,
});

describe("buildReport", () => {
  const changed = [{ path: "src/a.js", status: "modified" as const, addedLines: [2, 3] }];

  it("reports a failed evaluation as neutral, its annotations kept, where the organization requires no pass", () => {
    const outcome = { passed: false, violations: [violation()], totalViolations: 1, filesEvaluated: 1 };
    const report = buildReport(outcome, changed, { skippedForSize: 0 }, undefined, { blocking: false });
    expect(report.state).toBe("neutral");
    expect(report.title).toBe("Verdict: failed, not blocking (no pass required), 1 violation in 1 file");
    expect(report.annotations).toHaveLength(1);
    expect(buildReport(outcome, changed, { skippedForSize: 0 }, undefined, { blocking: true }).state).toBe("failure");
  });

  it("fails with one annotation per violation on an added line; the others are counted in the summary", () => {
    const report = buildReport(
      {
        passed: false,
        violations: [violation(), violation({ line: 9, fingerprint: "fp2" })],
        totalViolations: 2,
        filesEvaluated: 1,
      },
      changed,
      { skippedForSize: 0 },
      "https://verdict.example.com/evaluations/eval_1",
    );
    expect(report.state).toBe("failure");
    expect(report.title).toBe("Verdict: failed, 2 violations in 1 file");
    expect(report.annotations).toEqual([
      {
        path: "src/a.js",
        line: 2,
        level: "failure",
        title: "secrets: aws-access-key-id",
        message: 'AWS access key id found\n\n`const k = "AKIA****";`',
        fingerprint: "fp1",
      },
    ]);
    expect(report.summary).toContain("1 on lines this change did not add");
    expect(report.detailsUrl).toBe("https://verdict.example.com/evaluations/eval_1");
  });

  it("is neutral, never a silent pass, when files were left out for size; a failure still fails", () => {
    const passed = buildReport({ passed: true, violations: [], totalViolations: 0, filesEvaluated: 3 }, changed, {
      skippedForSize: 2,
    });
    expect(passed.state).toBe("neutral");
    expect(passed.title).toBe("Verdict: not evaluated whole, 2 files were too large to evaluate");
    const failed = buildReport(
      { passed: false, violations: [violation()], totalViolations: 1, filesEvaluated: 3 },
      changed,
      {
        skippedForSize: 2,
      },
    );
    expect(failed.state).toBe("failure");
    const clean = buildReport({ passed: true, violations: [], totalViolations: 0, filesEvaluated: 1 }, changed, {
      skippedForSize: 0,
    });
    expect(clean).toMatchObject({
      state: "success",
      title: "Verdict: passed, 0 violations in 1 file",
      annotations: [],
    });
  });

  it("marks warnings as warnings", () => {
    const report = buildReport(
      { passed: true, violations: [violation({ severity: "warning" })], totalViolations: 1, filesEvaluated: 1 },
      changed,
      { skippedForSize: 0 },
    );
    expect(report.annotations[0]!.level).toBe("warning");
  });
});

describe("filesToRead and isText", () => {
  const limits = { maxFiles: 2, maxFileBytes: 10, maxTotalBytes: 100 };

  it("reads added, modified, renamed and copied files, at most maxFiles, counting the rest", () => {
    const files = [
      { path: "a", status: "added" as const },
      { path: "b", status: "removed" as const },
      { path: "c", status: "renamed" as const, previousPath: "old" },
      { path: "d", status: "modified" as const },
    ];
    expect(filesToRead(files, limits)).toEqual({ read: [files[0], files[2]], overLimit: 1 });
  });

  it("takes UTF-8 text, not a NUL byte or invalid UTF-8", () => {
    expect(isText(Buffer.from("héllo\n"))).toBe(true);
    expect(isText(Uint8Array.from([0x68, 0x00, 0x69]))).toBe(false);
    expect(isText(Uint8Array.from([0xff, 0xfe, 0x41]))).toBe(false);
  });
});

describe("checkConnectionInput", () => {
  const ok = { provider: "gitea", base_url: "https://gitea.example.com", token: "t", webhook_secret: "s".repeat(16) };

  it("accepts a gitea connection, and says which field is wrong otherwise", () => {
    expect(checkConnectionInput(ok)).toEqual([]);
    expect(checkConnectionInput({ ...ok, provider: "bitbucket" })).toEqual([
      expect.objectContaining({ field: "provider", code: "INVALID_ENUM" }),
    ]);
    for (const base_url of ["ftp://x", "https://user:pw@x", "https://x/?q=1", "not a url"])
      expect(checkConnectionInput({ ...ok, base_url })).toEqual([
        expect.objectContaining({ field: "base_url", code: "INVALID_FORMAT" }),
      ]);
    expect(checkConnectionInput({ ...ok, webhook_secret: "short" })).toEqual([
      expect.objectContaining({ field: "webhook_secret", code: "MIN_SIZE_REQUIRED", min: 16 }),
    ]);
    expect(checkConnectionInput({ ...ok, token: "" })).toEqual([
      expect.objectContaining({ field: "token", code: "REQUIRED" }),
    ]);
  });

  it("names the events route of a connection", () => {
    expect(eventsPath("gitea", "conn_1")).toBe("/v1/integrations/gitea/events?connection=conn_1");
  });
});
