// Request bodies generated from the proto files (scripts/rest-gen.mjs): the field rules of
// proto/verdict/policy/v1/policy.proto answer the spec's field errors, take their defaults, and
// the OpenAPI document shows each body's components in their input form.
import { describe, expect, it } from "@jest/globals";
import { AppError } from "@verdict/kit";
import { CreatePolicyRequestSchema, TestPatternsRequestSchema, UpdatePolicyRequestSchema } from "../gen/policy.rest.js";
import { routes } from "../routes/index.js";
import { buildOpenApi } from "./openapi.js";
import { refuseProtoKey } from "./restTypes.js";
import { parseOr400 } from "./validation.js";

function failure(fn: () => unknown): AppError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(AppError);
    return err as AppError;
  }
  throw new Error("expected the body to be refused");
}
const fieldErrors = (fn: () => unknown) => (failure(fn).details as { errors: unknown[] }).errors;

const pattern = { type: "regex", value: "x+", message: "an x" };

describe("request bodies from the proto's field rules", () => {
  it("gives an absent optional field its default and keeps what was sent", () => {
    expect(
      parseOr400(CreatePolicyRequestSchema, { id: "no-x", name: "No x", severity: "error", patterns: [pattern] }),
    ).toEqual({
      id: "no-x",
      name: "No x",
      severity: "error",
      patterns: [pattern],
      description: "",
      category: "custom",
      enabled: true,
      frameworks: [],
      suggestions: [],
    });
  });

  it("names each broken rule with the spec's field path and code, nested fields included", () => {
    const errs = fieldErrors(() =>
      parseOr400(CreatePolicyRequestSchema, {
        id: "No",
        severity: "fatal",
        frameworks: ["nist-ssdf:PW.1", "no control"],
        patterns: [{ type: "glob", value: "", message: "m".repeat(501) }],
        documentation_url: "not a url",
        colour: "red",
      }),
    );
    expect(errs).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ field: "id", code: "INVALID_FORMAT", message: expect.stringMatching(/slug/) }),
        expect.objectContaining({ field: "name", code: "REQUIRED" }),
        expect.objectContaining({ field: "severity", code: "INVALID_ENUM" }),
        expect.objectContaining({ field: "frameworks[1]", code: "INVALID_FORMAT" }),
        expect.objectContaining({ field: "patterns[0].type", code: "INVALID_ENUM" }),
        expect.objectContaining({ field: "patterns[0].value", code: "MIN_SIZE_REQUIRED", min: 1 }),
        expect.objectContaining({ field: "patterns[0].message", code: "MAX_SIZE_EXCEEDED", max: 500 }),
        expect.objectContaining({ field: "documentation_url", code: "INVALID_FORMAT" }),
        expect.objectContaining({ field: "colour", code: "INVALID_FORMAT", message: "colour is not a known field" }),
      ]),
    );
    expect(errs).toHaveLength(9);
    expect(fieldErrors(() => parseOr400(TestPatternsRequestSchema, { patterns: [], text: "" }))).toEqual([
      expect.objectContaining({ field: "patterns", code: "MIN_SIZE_REQUIRED", min: 1 }),
    ]);
  });

  it("refuses a Struct nested deeper than its max_depth, and a __proto__ key in it", () => {
    let deep: unknown = 1;
    for (let i = 0; i < 9; i++) deep = [deep];
    expect(fieldErrors(() => parseOr400(UpdatePolicyRequestSchema, { settings: { ok: [[1]], deep } }))).toEqual([
      expect.objectContaining({ field: "settings.deep", code: "MAX_SIZE_EXCEEDED", max: 8 }),
    ]);
    const raw = JSON.parse('{"settings":{"min_entropy":4,"__proto__":{"min_entropy":1}}}') as unknown;
    const refused = failure(() => refuseProtoKey(raw, "settings"));
    expect(refused.kind).toBe("unprocessable");
    expect((refused.details as { errors: unknown[] }).errors).toEqual([
      expect.objectContaining({ field: "settings.__proto__", code: "INVALID_FORMAT" }),
    ]);
    expect(() => refuseProtoKey({ settings: { min_entropy: 4 } }, "settings")).not.toThrow();
  });

  it("documents a body's components in their input form and answers in their output form", () => {
    type Schema = { required?: string[]; properties: Record<string, { default?: unknown }> };
    const schemas = (buildOpenApi(routes) as { components: { schemas: Record<string, Schema> } }).components.schemas;
    // CreatePolicy holds Pattern and Suggestion: a default makes a field optional in a request.
    expect(schemas.CreatePolicy!.required!.sort()).toEqual(["id", "name", "patterns", "severity"]);
    expect(schemas.CreatePolicy!.properties.category!.default).toBe("custom");
    // A regex pattern's value is required by the policy service (400): a structural one has none.
    expect(schemas.Pattern!.required!.sort()).toEqual(["message", "type"]);
    // Policy is only answered: every field is there.
    expect(schemas.Policy!.required).toEqual(expect.arrayContaining(["description", "settings", "builtin"]));
  });
});
