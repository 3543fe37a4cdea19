import { describe, expect, it } from "@jest/globals";
import { AppError } from "@verdict/kit";
import { ListEvaluationsQuery } from "../gen/evaluation.rest.js";
import { CreateEvaluationSchema } from "./schemas.js";
import { fieldPath, parseOr400 } from "./validation.js";

const errorsOf = (fn: () => unknown) => {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(AppError);
    const e = err as AppError;
    expect({ kind: e.kind, code: e.code }).toEqual({ kind: "validation", code: "VALIDATION_FAILED" });
    return (e.details as { errors: unknown[] }).errors;
  }
  throw new Error("expected a validation error");
};

describe("validation errors", () => {
  it("writes paths the way the spec does", () => {
    expect(fieldPath(["files", 0, "content"])).toBe("files[0].content");
    expect(fieldPath([0], "policies")).toBe("policies[0]");
    expect(fieldPath(["a", "b"])).toBe("a.b");
  });

  it("maps missing, wrong-type, size, enum and unknown-field problems to the spec's codes", () => {
    const errs = errorsOf(() =>
      parseOr400(CreateEvaluationSchema, { ref: 7, files: [{ path: "", content: "x", status: "bogus" }], extra: 1 }),
    );
    expect(errs).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ field: "repository", code: "REQUIRED" }),
        expect.objectContaining({ field: "ref", code: "INVALID_FORMAT" }),
        expect.objectContaining({ field: "files[0].path", code: "MIN_SIZE_REQUIRED", min: 1 }),
        expect.objectContaining({ field: "files[0].status", code: "INVALID_ENUM" }),
        expect.objectContaining({ field: "extra", code: "INVALID_FORMAT" }),
      ]),
    );
  });

  it("reports the byte limit of file contents with max 1048576", () => {
    const errs = errorsOf(() =>
      parseOr400(CreateEvaluationSchema, {
        repository: "a/b",
        ref: "main",
        files: [{ path: "p", content: "ü".repeat(600_000) }],
      }),
    );
    expect(errs).toEqual([
      expect.objectContaining({ field: "files[0].content", code: "MAX_SIZE_EXCEEDED", max: 1048576 }),
    ]);
  });

  it("parses query strings with defaults and bounds", () => {
    expect(parseOr400(ListEvaluationsQuery, {})).toEqual({ limit: 20 });
    expect(parseOr400(ListEvaluationsQuery, { passed: "false", limit: "5" })).toEqual({ passed: false, limit: 5 });
    expect(errorsOf(() => parseOr400(ListEvaluationsQuery, { limit: "500" }))).toEqual([
      expect.objectContaining({ field: "limit", code: "MAX_SIZE_EXCEEDED", max: 100 }),
    ]);
  });
});
