import { describe, expect, it } from "@jest/globals";
import type { Evaluation } from "@verdict/sdk";
import {
  batchBody,
  batchChunks,
  batchesFor,
  encodeFile,
  LARGE_BATCH,
  jsonStringOfUtf8,
  mergeEvaluations,
  SYNC_BATCH,
  takeBatch,
  type EncodedFile,
} from "./batches.js";

const file = (i: number, content = `x${i}`) =>
  encodeFile({ path: `f${i}.js`, content: Buffer.from(content), status: "modified" });
const decoded = (e: EncodedFile) => JSON.parse(Buffer.concat(e.chunks).toString("utf8"));

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
  fingerprint: "f",
});

describe("batches", () => {
  it("encode a file as its JSON entry, the content's UTF-8 bytes escaped as they are, and measure it in bytes", () => {
    const text = 'é "q" \\ \n\t\u0001 日本 🚀';
    const f = encodeFile({ path: "dir/ü.js", content: Buffer.from(text, "utf8"), status: "added" });
    expect(decoded(f)).toEqual({ path: "dir/ü.js", content: text, status: "added" });
    expect(f.bytes).toBe(Buffer.concat(f.chunks).length);
    expect(f.bytes).toBe(Buffer.byteLength(JSON.stringify({ path: "dir/ü.js", content: text, status: "added" })));
  });

  it("escape every byte as JSON.stringify does", () => {
    const all = Buffer.from(Array.from({ length: 0x80 }, (_, c) => String.fromCharCode(c)).join("") + "é€𝄞", "utf8");
    expect(jsonStringOfUtf8(all).toString("utf8")).toBe(JSON.stringify(all.toString("utf8")));
  });

  it("send invalid UTF-8 as the API would read it, with U+FFFD", () => {
    const f = encodeFile({ path: "a", content: Buffer.from([0x61, 0xff, 0x62]), status: "modified" });
    expect(decoded(f).content).toBe("a\ufffdb");
  });

  it("stop at the file count or the content bytes, and always take at least one file", () => {
    const sized = (n: number, bytes: number) => Array.from({ length: n }, (_, i) => ({ i, bytes }));
    const read = (f: { i: number }) => file(f.i);
    const ends = (files: { i: number; bytes: number }[], start: number, limit = SYNC_BATCH) =>
      takeBatch(files, start, limit, read).end;
    expect(ends(sized(450, 10), 0)).toBe(199);
    expect(ends(sized(450, 10), 398)).toBe(450);
    expect(ends(sized(450, 10), 0, LARGE_BATCH)).toBe(450);
    expect(ends(sized(5, 1_500_000), 0)).toBe(2);
    expect(
      ends(
        [
          { i: 0, bytes: SYNC_BATCH.bytes + 10 },
          { i: 1, bytes: 1 },
        ],
        0,
      ),
    ).toBe(1);
  });

  it("keep the JSON body under its limit, and count unreadable files as taken without sending them", () => {
    const entry = (bytes: number): EncodedFile => ({ path: "p", chunks: [], bytes });
    const files = [0, 1, 2, 3].map((i) => ({ i, bytes: 10 }));
    const body = takeBatch(files, 0, { files: 100, bytes: 1000, bodyBytes: 25 }, () => entry(10));
    expect(body.end).toBe(2);
    const some = takeBatch(files, 0, SYNC_BATCH, (f) => (f.i % 2 ? null : file(f.i)));
    expect({ end: some.end, paths: some.entries.map((e) => e.path) }).toEqual({ end: 4, paths: ["f0.js", "f2.js"] });
  });

  it("estimate the batches still needed by files and by bytes", () => {
    expect(batchesFor(0, 0, SYNC_BATCH)).toBe(0);
    expect(batchesFor(398, 1000, SYNC_BATCH)).toBe(2);
    expect(batchesFor(399, 1000, SYNC_BATCH)).toBe(3);
    expect(batchesFor(10, 3 * SYNC_BATCH.bytes, SYNC_BATCH)).toBe(3);
  });

  it("build a request body as chunks of the entries' own bytes, the same bytes as the joined body", () => {
    const entries = [
      encodeFile({ path: "ü/a.js", content: Buffer.from('const s = "日本";\n'), status: "added" }),
      file(2),
    ];
    const chunks = batchChunks({ repository: "acme/x", ref: "main" }, entries);
    expect(chunks).toContain(entries[0]!.chunks[1]);
    expect(Buffer.concat(chunks)).toEqual(batchBody({ repository: "acme/x", ref: "main" }, entries));
    expect(JSON.parse(Buffer.concat(chunks).toString("utf8")).files[0]).toEqual({
      path: "ü/a.js",
      content: 'const s = "日本";\n',
      status: "added",
    });
  });

  it("build a request body from the pre-encoded entries", () => {
    const body = batchBody({ repository: "acme/x", ref: "main", policies: ["p"] }, [file(1), file(2)]);
    expect(JSON.parse(body.toString("utf8"))).toEqual({
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
