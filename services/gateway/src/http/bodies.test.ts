// An evaluation's body is parsed, validated and encoded as its create request in one step
// (encodeEvaluation: on a body worker when it is large): the request must carry the UTF-8 bytes of
// each content exactly, whatever the body holds, and the body that comes back to the gateway's
// thread leaves its contents out, the encoding beside it.
import { describe, expect, it } from "@jest/globals";
import { evaluationV1 } from "@verdict/proto";
import { encodeEvaluation, parseBody } from "./bodies.js";

function roundTrip(body: Buffer) {
  const job = { operationId: "createEvaluation", bytes: body, organizationId: "org_a" };
  const outcome = encodeEvaluation(job, parseBody(job.operationId, body));
  if (outcome.kind !== "ok" || !outcome.encoded) throw new Error(`not parsed and encoded: ${outcome.kind}`);
  const parsed = outcome.data as { files: { content: string }[] };
  const encoded = outcome.encoded;
  const request = evaluationV1.CreateEvaluationRequest.decode(encoded.bytes);
  return { parsed, encoded, request };
}

const envelope = (files: string) => `{"repository":"acme/api","ref":"main","files":[${files}]}`;

describe("an evaluation body's create request, encoded once when the body is read", () => {
  it("carries the UTF-8 bytes of each content: escapes, multi-byte characters, lone surrogates, empty files", () => {
    const contents = ["plain", 'quote " and \\ back', "é 😀 \u0000 end", "\ud800 lone", "", "x".repeat(70_000)];
    const body = Buffer.from(envelope(contents.map((c, i) => JSON.stringify({ path: `f${i}`, content: c })).join(",")));
    const { parsed, encoded, request } = roundTrip(body);
    expect(request.files.map((f) => Buffer.from(f.content))).toEqual(contents.map((c) => Buffer.from(c, "utf8")));
    expect(request.files.map((f) => [f.path, f.status])).toEqual(contents.map((_, i) => [`f${i}`, "modified"]));
    expect(request).toMatchObject({ organization_id: "org_a", repository: "acme/api", ref: "main", base_ref: "" });
    expect(encoded).toMatchObject({
      organizationId: "org_a",
      files: contents.length,
      contentBytes: contents.reduce((n, c) => n + Buffer.byteLength(c, "utf8"), 0),
    });
    // The contents stay on the worker: the gateway's thread gets the encoding instead.
    expect(parsed.files.map((f) => f.content)).toEqual(contents.map(() => ""));
  });

  it("is complete when invalid UTF-8 in the body decodes to more bytes than the body has", () => {
    // Each 0xFF byte is read as U+FFFD, three bytes: the contents outgrow the body's size.
    const body = Buffer.concat([
      Buffer.from(`{"repository":"acme/api","ref":"main","files":[{"path":"a","content":"start `),
      Buffer.alloc(4000, 0xff),
      Buffer.from(` end"},{"path":"b","content":"after"}]}`),
    ]);
    const [a, b] = roundTrip(body).request.files;
    expect(Buffer.from(a!.content)).toEqual(Buffer.from(`start ${"\ufffd".repeat(4000)} end`, "utf8"));
    expect(Buffer.from(b!.content)).toEqual(Buffer.from("after"));
  });

  it("is not made for a body that failed validation, nor without an organization", () => {
    const invalid = Buffer.from(`{"repository":"acme/api","files":[]}`);
    const job = { operationId: "createEvaluation", bytes: invalid, organizationId: "org_a" };
    expect(encodeEvaluation(job, parseBody(job.operationId, invalid)).kind).toBe("invalid");
    const valid = Buffer.from(envelope(`{"path":"a","content":"x"}`));
    const anonymous = encodeEvaluation({ operationId: "createEvaluation" }, parseBody("createEvaluation", valid));
    expect(anonymous.kind === "ok" && anonymous.encoded).toBeUndefined();
  });
});
