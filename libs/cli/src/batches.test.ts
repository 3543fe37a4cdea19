import { describe, expect, it } from "@jest/globals";
import type { Evaluation } from "@verdict/sdk";
import { batchBody, batchEnd, batchesFor, encodeFile, LARGE_BATCH, mergeEvaluations, SYNC_BATCH } from "./batches.js";

const file = (i: number, content = `x${i}`) => encodeFile({ path: `f${i}.js`, content, status: "modified" });

function evaluation(id: string, over: Partial<Evaluation> = {}): Evaluation {
  return {
    id,
    status: "completed",
    repository: "acme/x",
    ref: "main",
    base_ref: null,
    created_at: "2026-01-01T00:00:00.000Z",
    completed_at: "2026-01-01T00:00:01.000Z",
    passed: true,
    summary: { total_files: 1, total_violations: 0, errors: 0, warnings: 0, suppressed: 0, skipped_files: 0 },
    violations: [],
    suppressions: [],
    ...over,
  };
}

const violation = (file: string, line: number, severity: "error" | "warning" = "error") => ({
  id: `viol_${file}_${line}`,
  policy_id: "aws-credentials",
  rule_id: "aws-access-key-id",
  severity,
  file,
  line,
  column: 1,
  message: "m",
  code_snippet: "s",
  suggestion: "",
});

describe("batches", () => {
  it("measure a file by its JSON entry's UTF-8 bytes", () => {
    const f = encodeFile({ path: "a.js", content: 'é"\n', status: "added" });
    expect(JSON.parse(f.json)).toEqual({ path: "a.js", content: 'é"\n', status: "added" });
    expect(f.bytes).toBe(Buffer.byteLength(f.json));
  });

  it("stop at the file count or the byte limit, and always take at least one file", () => {
    const many = Array.from({ length: 450 }, (_, i) => file(i));
    expect(batchEnd(many, 0, SYNC_BATCH)).toBe(199);
    expect(batchEnd(many, 398, SYNC_BATCH)).toBe(450);
    expect(batchEnd(many, 0, LARGE_BATCH)).toBe(450);
    const big = Array.from({ length: 5 }, (_, i) => file(i, "y".repeat(1_500_000)));
    expect(batchEnd(big, 0, SYNC_BATCH)).toBe(2);
    const huge = [{ path: "h", json: "", bytes: SYNC_BATCH.bytes + 10 }, file(1)];
    expect(batchEnd(huge, 0, SYNC_BATCH)).toBe(1);
  });

  it("estimate the batches still needed by files and by bytes", () => {
    expect(batchesFor(0, 0, SYNC_BATCH)).toBe(0);
    expect(batchesFor(398, 1000, SYNC_BATCH)).toBe(2);
    expect(batchesFor(399, 1000, SYNC_BATCH)).toBe(3);
    expect(batchesFor(10, 3 * SYNC_BATCH.bytes, SYNC_BATCH)).toBe(3);
  });

  it("build a request body from the pre-encoded entries", () => {
    const body = batchBody({ repository: "acme/x", ref: "main", policies: ["p"] }, [file(1), file(2)]);
    expect(JSON.parse(body)).toEqual({
      repository: "acme/x",
      ref: "main",
      policies: ["p"],
      files: [
        { path: "f1.js", content: "x1", status: "modified" },
        { path: "f2.js", content: "x2", status: "modified" },
      ],
    });
  });
});

describe("mergeEvaluations", () => {
  it("sums the counts, sorts every part's findings by place, and fails when any part failed", () => {
    const a = evaluation("eval_a", {
      passed: false,
      summary: { total_files: 199, total_violations: 2, errors: 1, warnings: 1, suppressed: 1, skipped_files: 2 },
      violations: [violation("src/z.js", 3), violation("src/b.js", 9, "warning")],
      created_at: "2026-01-01T00:00:02.000Z",
    });
    const b = evaluation("eval_b", {
      summary: { total_files: 50, total_violations: 1, errors: 1, warnings: 0, suppressed: 0, skipped_files: 1 },
      violations: [violation("src/b.js", 2)],
      completed_at: "2026-01-01T00:00:09.000Z",
    });
    const m = mergeEvaluations([a, b]);
    expect(m).toMatchObject({
      id: null,
      evaluations: ["eval_a", "eval_b"],
      status: "completed",
      passed: false,
      repository: "acme/x",
      created_at: "2026-01-01T00:00:00.000Z",
      completed_at: "2026-01-01T00:00:09.000Z",
      summary: { total_files: 249, total_violations: 3, errors: 2, warnings: 1, suppressed: 1, skipped_files: 3 },
    });
    expect(m.violations.map((v) => `${v.file}:${v.line}`)).toEqual(["src/b.js:2", "src/b.js:9", "src/z.js:3"]);
  });

  it("keeps one evaluation as it is, with its id", () => {
    const one = evaluation("eval_one");
    expect(mergeEvaluations([one])).toEqual({ ...one, evaluations: ["eval_one"] });
  });

  it("passes only when every part passed", () => {
    expect(mergeEvaluations([evaluation("eval_a"), evaluation("eval_b")]).passed).toBe(true);
  });
});
