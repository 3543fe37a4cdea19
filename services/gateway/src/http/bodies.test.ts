// Large evaluation bodies are parsed on a body worker, their contents packed into one buffer
// (pack) and put back as views of it (unpack): the bytes must be the UTF-8 of each content
// exactly, whatever the body holds.
import { describe, expect, it } from "@jest/globals";
import { pack, parseBody, unpack } from "./bodies.js";

function roundTrip(body: Buffer) {
  const outcome = pack(parseBody("createEvaluation", body), body.length);
  if (outcome.kind !== "ok") throw new Error(`not parsed: ${outcome.kind}`);
  return (unpack(outcome) as { files: { content: Buffer }[] }).files.map((f) => f.content);
}

const envelope = (files: string) => `{"repository":"acme/api","ref":"main","files":[${files}]}`;

describe("an evaluation body's contents, packed on the body worker", () => {
  it("are the UTF-8 bytes of each content: escapes, multi-byte characters, lone surrogates, empty files", () => {
    const contents = ["plain", 'quote " and \\ back', "é 😀 \u0000 end", "\ud800 lone", "", "x".repeat(70_000)];
    const body = Buffer.from(envelope(contents.map((c, i) => JSON.stringify({ path: `f${i}`, content: c })).join(",")));
    expect(roundTrip(body)).toEqual(contents.map((c) => Buffer.from(c, "utf8")));
  });

  it("are complete when invalid UTF-8 in the body decodes to more bytes than the body has", () => {
    // Each 0xFF byte is read as U+FFFD, three bytes: the contents outgrow a buffer of the body's size.
    const body = Buffer.concat([
      Buffer.from(`{"repository":"acme/api","ref":"main","files":[{"path":"a","content":"start `),
      Buffer.alloc(4000, 0xff),
      Buffer.from(` end"},{"path":"b","content":"after"}]}`),
    ]);
    const [a, b] = roundTrip(body);
    expect(a).toEqual(Buffer.from(`start ${"\ufffd".repeat(4000)} end`, "utf8"));
    expect(b).toEqual(Buffer.from("after"));
  });
});
