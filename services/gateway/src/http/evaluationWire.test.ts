// The create request's hand-written encoder must write exactly what the generated one writes:
// the evaluation service decodes it with the generated decoder.
import { describe, expect, it } from "@jest/globals";
import { evaluationV1 } from "@verdict/proto";
import { encodeCreateEvaluation, type CreateEvaluationWire } from "./evaluationWire.js";

const generated = (req: CreateEvaluationWire) =>
  Buffer.from(
    evaluationV1.CreateEvaluationRequest.encode({
      ...req,
      // gRPC callers' key: never sent from REST (an internal field).
      request_id: "",
      files: req.files.map((f) => ({
        ...f,
        content: typeof f.content === "string" ? Buffer.from(f.content, "utf8") : Buffer.from(f.content),
      })),
    }).finish(),
  );

const request = (over: Partial<CreateEvaluationWire> = {}): CreateEvaluationWire => ({
  organization_id: "org_01J",
  repository: "acme/api",
  ref: "refs/heads/main",
  base_ref: "main",
  files: [{ path: "src/a.ts", content: "const a = 1;\n", status: "modified" }],
  policies: ["secrets", "owasp"],
  bypass_reason: "",
  ...over,
});

describe("the create request's encoding", () => {
  const cases: [string, CreateEvaluationWire][] = [
    ["a typical request", request()],
    ["defaults left out: empty strings, empty contents, no policies", request({ base_ref: "", policies: [] })],
    ["a bypass reason (field 70: a tag of two bytes)", request({ bypass_reason: "hotfix: the key is revoked" })],
    [
      "empty paths, statuses and contents, an empty policy id",
      request({ files: [{ path: "", content: "", status: "" }], policies: [""] }),
    ],
    [
      "multi-byte characters, lone surrogates and control characters",
      request({
        repository: "acme/ä😀",
        files: [{ path: "é/\ud800.txt", content: "é 😀 \u0000 \udfff end", status: "added" }],
      }),
    ],
    [
      "contents as bytes, and lengths whose varints take 1 to 4 bytes",
      request({
        files: [127, 128, 16_383, 16_384, 2_097_152].map((n, i) => ({
          path: `f${i}`,
          content: i % 2 ? Buffer.alloc(n, 0x61) : "b".repeat(n),
          status: "modified",
        })),
      }),
    ],
  ];
  it.each(cases)("is the generated encoder's, byte for byte: %s", (_, req) => {
    const { bytes, contentBytes } = encodeCreateEvaluation(req);
    expect(Buffer.from(bytes)).toEqual(generated(req));
    expect(contentBytes).toBe(
      req.files.reduce(
        (n, f) => n + (typeof f.content === "string" ? Buffer.byteLength(f.content) : f.content.length),
        0,
      ),
    );
    // A buffer of its own, exactly the encoding's size (it moves to another thread as it is).
    expect(bytes.byteOffset).toBe(0);
    expect(bytes.buffer.byteLength).toBe(bytes.byteLength);
  });
});
