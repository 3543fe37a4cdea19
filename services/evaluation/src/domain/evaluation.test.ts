import { describe, expect, it } from "@jest/globals";
import { checkEvaluationInput, isScanned, MAX_VIOLATIONS, packSlice, summarize } from "./evaluation.js";
import type { Finding } from "./engine.js";

const finding = (severity: string): Finding => ({
  policy_id: "p",
  rule_id: "p",
  severity,
  file: "f",
  line: 1,
  column: 1,
  message: "m",
  code_snippet: "s",
  suggestion: "",
  fingerprint: "f",
});

describe("evaluation rules", () => {
  it("passes unless something of error severity was found, counting findings past the cap", () => {
    const warningsOnly = summarize(2, [
      { findings: [finding("warning")], suppressions: [], matched: 1, bySeverity: { warning: 1 } },
    ]);
    expect(warningsOnly).toMatchObject({
      passed: true,
      summary: { total_files: 2, total_violations: 1, errors: 0, warnings: 1 },
    });
    const many = Array.from({ length: MAX_VIOLATIONS + 5 }, () => finding("error"));
    const capped = summarize(1, [
      { findings: many, suppressions: [], matched: 5000, bySeverity: { error: 4000, warning: 1000 } },
    ]);
    expect(capped.kept).toHaveLength(MAX_VIOLATIONS);
    expect(capped).toMatchObject({ passed: false, summary: { total_violations: 5000, errors: 4000, warnings: 1000 } });
  });

  it("counts suppressed findings and skipped files", () => {
    const suppression = { policy_id: "p", rule_id: "p", file: "f", line: 3, reason: "test data", fingerprint: "" };
    const outcome = summarize(3, [
      { findings: [], suppressions: [suppression], matched: 0, bySeverity: {} },
      { skipped: "lockfile", findings: [], suppressions: [], matched: 0, bySeverity: {} },
      { skipped: "removed", findings: [], suppressions: [], matched: 0, bySeverity: {} },
    ]);
    expect(outcome).toMatchObject({
      passed: true,
      suppressions: [suppression],
      summary: { total_files: 3, suppressed: 1, skipped_files: 2, total_violations: 0 },
    });
  });

  it("does not scan removed or deleted files", () => {
    expect(["added", "modified", "renamed", "removed", "deleted"].filter(isScanned)).toEqual([
      "added",
      "modified",
      "renamed",
    ]);
  });

  it("checks the request shape with field paths, measuring content in UTF-8 bytes", () => {
    const problems = checkEvaluationInput({
      repository: "acme",
      files: [
        { path: "", content: Buffer.from("ok"), status: "added" },
        { path: "big", content: Buffer.from("é".repeat(524_289)), status: "added" },
      ],
      policies: ["aws-credentials", ""],
    });
    expect(problems.map((p) => `${p.field}:${p.code}`)).toEqual([
      "repository:INVALID_FORMAT",
      "files[0].path:REQUIRED",
      "files[1].content:MAX_SIZE_EXCEEDED",
      "policies[1]:REQUIRED",
    ]);
  });
});

describe("packSlice", () => {
  it("copies a slice's contents into one transferable buffer, each file a view of it, the originals untouched", () => {
    const a = Buffer.from("const a = 1;\n");
    const b = Buffer.from("");
    const c = Buffer.from("päss = 'x'\n");
    const { files, buffer } = packSlice([
      { path: "a.ts", status: "modified", content: a },
      { path: "b.ts", status: "added", content: b },
      { path: "c.py", status: "modified", content: c },
    ]);
    expect(buffer.byteLength).toBe(a.length + c.length);
    expect(files.map((f) => [f.path, f.status, Buffer.from(f.content).toString("utf8")])).toEqual([
      ["a.ts", "modified", "const a = 1;\n"],
      ["b.ts", "added", ""],
      ["c.py", "modified", "päss = 'x'\n"],
    ]);
    expect(files.every((f) => f.content.buffer === buffer)).toBe(true);
    // Moving the buffer away (as the transfer does) leaves the request's own bytes readable.
    structuredClone(buffer, { transfer: [buffer] });
    expect(a.toString("utf8")).toBe("const a = 1;\n");
    expect(files[0]!.content.byteLength).toBe(0);
  });
});
