// The REST surface generated from the proto files (scripts/rest-gen.mjs, docs/contracts.md), run
// on buf's real image (buf is a process: the medium tier). The worked example of
// docs/development.md: a field added to Violation in the proto reaches the gateway's schema, the
// OpenAPI component and the proto -> JSON mapper, and nothing else of the gateway changes.
import { describe, expect, it } from "@jest/globals";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { descriptorSet, generateAll } from "../../../../scripts/rest-gen.mjs";

const root = fileURLToPath(new URL("../../../../", import.meta.url));

/** evaluation.proto with `lines` added at the end of message Violation. */
function withViolationField(proto: string, lines: string): string {
  const start = proto.indexOf("message Violation {");
  const end = proto.indexOf("\n}", start);
  expect(start).toBeGreaterThan(0);
  return `${proto.slice(0, end)}\n${lines}${proto.slice(end)}`;
}

/** What the generator makes of a copy of proto/ in which `file` was changed by `change`. */
function generatedWith(file: string, change: (proto: string) => string): Map<string, string> {
  const dir = mkdtempSync(join(tmpdir(), "verdict-rest-gen-"));
  try {
    cpSync(join(root, "proto"), dir, { recursive: true });
    const path = join(dir, file);
    const proto = readFileSync(path, "utf8");
    const changed = change(proto);
    expect(changed).not.toBe(proto);
    writeFileSync(path, changed);
    return generateAll(descriptorSet(dir));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const EVALUATION = "verdict/evaluation/v1/evaluation.proto";
const IDENTITY = "verdict/identity/v1/identity.proto";

describe("the REST surface generated from the proto files", () => {
  const today = generateAll(descriptorSet()).get("evaluation.rest.ts")!;

  it("declares the evaluation routes from their google.api.http rules, literal paths before variables", () => {
    const routes = [...today.matchAll(/method: "(\w+)",\s+path: "([^"]+)"/g)].map((m) => `${m[1]} ${m[2]}`);
    expect(routes).toEqual([
      "get /v1/evaluations",
      "get /v1/evaluations/stats",
      "get /v1/evaluations/:evaluation_id",
      "delete /v1/evaluations/:evaluation_id",
    ]);
    // The caller's organization comes from its credential, never from the request.
    expect(today).toContain("organization_id: principal!.organizationId");
    expect(today).not.toMatch(/organization_id: (query|params)\./);
  });

  it("carries a field added to Violation into the schema, the OpenAPI component and the mapper, and changes nothing else", () => {
    const after = generatedWith(EVALUATION, (proto) =>
      withViolationField(proto, "  // The last line of the match, 1-based\n  int32 end_line = 99;"),
    ).get("evaluation.rest.ts")!;

    expect(after).toContain('end_line: z.number().int().meta({ description: "The last line of the match, 1-based" }),');
    expect(after).toContain("end_line: m.end_line,");
    // Every other line is as it was: the two lines above are the whole change.
    const added = after.split("\n").filter((l) => !today.split("\n").includes(l));
    expect(added.map((l) => l.trim())).toEqual([
      'end_line: z.number().int().meta({ description: "The last line of the match, 1-based" }),',
      "end_line: m.end_line,",
    ]);
    expect(today.split("\n").filter((l) => !after.split("\n").includes(l))).toEqual([]);
  });

  it("refuses a message answered and taken in a body whose two forms would differ", () => {
    // Suggestion is in Policy (answered) and CreatePolicyRequest (taken): its text is required in
    // both. Optional in a request, it would be required in the answer: one schema cannot say both.
    const optionalText = (proto: string) => {
      const start = proto.indexOf("message Suggestion {");
      return proto.slice(0, start) + proto.slice(start).replace("(google.api.field_behavior) = REQUIRED,\n", "");
    };
    expect(() => generatedWith("verdict/policy/v1/policy.proto", optionalText)).toThrow(
      /Suggestion: answered and taken in a request, but its field text differs/,
    );
  });

  it("fills who acts from the caller's credential, never from the body", () => {
    const identity = generateAll(descriptorSet()).get("identity.rest.ts")!;
    const body = identity.slice(identity.indexOf("export const CreateScimTokenRequestSchema"));
    expect(body.slice(0, body.indexOf(".strict()"))).not.toContain("actor");
    expect(identity).toMatch(/createScimToken\([^)]*actor: actorOf\(principal!, clientIp\)/s);
    // The REST contract's name for a field (an OAuth client's id is its client_id), and for a
    // path variable (the request's user_id is the path's member_id).
    expect(identity).toContain("client_id: m.id,");
    expect(identity).toContain('path: "/v1/members/:member_id"');
    expect(identity).toContain("user_id: params.member_id");
    // A proto3 optional field with a default answers it when unset, not null.
    expect(identity).toContain("allow_inline_suppression: m.allow_inline_suppression ?? true,");
    const unknownSource = (proto: string) => proto.replace('from_caller: "actor"', 'from_caller: "body"');
    expect(() => generatedWith(IDENTITY, unknownSource)).toThrow(/actor: from_caller body is not one of/);
  });

  it("refuses a type it has no JSON rule for, rather than guessing one", () => {
    expect(() => generatedWith(EVALUATION, (proto) => withViolationField(proto, "  bytes raw = 99;"))).toThrow(
      /raw: type TYPE_BYTES has no JSON rule/,
    );
  });
});
