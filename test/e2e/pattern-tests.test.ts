// The pattern tester over real HTTP: the same checks as creating a policy (fields and codes),
// then the engine's matching on sample text, with lines and columns in code points.
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { Api, expectFieldError } from "../support/api.js";
import { startVerdict, type Verdict } from "../support/server.js";

let v: Verdict;
let api: Api;

beforeAll(async () => {
  v = await startVerdict();
  api = new Api(v.url, v.bootstrapKey);
});
afterAll(async () => v.destroy());

const regex = (value: string) => ({ type: "regex", value });

describe("POST /v1/policies/pattern-tests", () => {
  it("answers every match with its line and column (code points), as the engine finds them", async () => {
    const text = "const a = 1;\n// TODO(token) ü TODO(token)\nnothing here\n";
    const res = await api.post("/v1/policies/pattern-tests", {
      patterns: [regex("TODO\\(token\\)"), regex("^nothing")],
      text,
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      truncated: false,
      matches: [
        { pattern: 0, line: 2, column: 4, end_line: 2, end_column: 15, text: "TODO(token)" },
        { pattern: 0, line: 2, column: 18, end_line: 2, end_column: 29, text: "TODO(token)" },
        // `^` matches at every line start: the engine's multi-line flag.
        { pattern: 1, line: 3, column: 1, end_line: 3, end_column: 8, text: "nothing" },
      ],
    });
  });

  it("uses RE2's semantics: \\pL is any letter (a browser's RegExp without the u flag reads it as 'pL')", async () => {
    const res = await api.post("/v1/policies/pattern-tests", { patterns: [regex("\\pLrger")], text: "1 Ärger 2" });
    expect(res.status).toBe(200);
    expect(res.body.matches).toEqual([{ pattern: 0, line: 1, column: 3, end_line: 1, end_column: 8, text: "Ärger" }]);
  });

  it("refuses what creating the policy refuses, on the same field with the same code", async () => {
    // JavaScript's RegExp accepts lookbehind; RE2 does not.
    const lookbehind = "(?<=key=)\\w+";
    const tested = await api.post("/v1/policies/pattern-tests", {
      patterns: [regex("ok"), regex(lookbehind)],
      text: "key=abc",
    });
    expectFieldError(tested, 422, "patterns[1].value", "INVALID_FORMAT");
    expect(tested.body.details.errors[0].message).toMatch(/^Not a valid RE2 pattern: /);
    const created = await api.post("/v1/policies", {
      id: "lookbehind",
      name: "Lookbehind",
      severity: "warning",
      patterns: [
        { type: "regex", value: "ok", message: "m" },
        { type: "regex", value: lookbehind, message: "m" },
      ],
    });
    expectFieldError(created, 422, "patterns[1].value", "INVALID_FORMAT");
    expect(created.body.details.errors[0].message).toBe(tested.body.details.errors[0].message);

    expectFieldError(
      await api.post("/v1/policies/pattern-tests", { patterns: [regex("a*")], text: "" }),
      422,
      "patterns[0].value",
      "INVALID_FORMAT",
    );
    const costly = await api.post("/v1/policies/pattern-tests", { patterns: [regex("[\\pL\\pN]{400}Z0")], text: "x" });
    expectFieldError(costly, 422, "patterns[0].value", "INVALID_FORMAT");
    expect(costly.body.details.errors[0].message).toMatch(/^Pattern is too costly/);
  });

  it("caps the sample and the matches, and checks the body", async () => {
    expectFieldError(
      await api.post("/v1/policies/pattern-tests", { patterns: [regex("a")], text: "a".repeat(65_537) }),
      400,
      "text",
      "MAX_SIZE_EXCEEDED",
    );
    expectFieldError(
      await api.post("/v1/policies/pattern-tests", { patterns: [], text: "a" }),
      400,
      "patterns",
      "MIN_SIZE_REQUIRED",
    );
    expectFieldError(
      await api.post("/v1/policies/pattern-tests", { patterns: [{ type: "glob", value: "a" }], text: "a" }),
      400,
      "patterns[0].type",
      "INVALID_ENUM",
    );
    const many = await api.post("/v1/policies/pattern-tests", { patterns: [regex("@@")], text: "@@".repeat(300) });
    expect(many.status).toBe(200);
    expect(many.body.matches).toHaveLength(200);
    expect(many.body.truncated).toBe(true);
    expect(many.body.matches[199]).toMatchObject({ line: 1, column: 399, end_column: 401 });
  });

  it("needs write:policies, as creating a policy does", async () => {
    const key = await api.post("/v1/api-keys", { name: "reader", scopes: ["read:policies"], expiration: "24h" });
    expect(key.status).toBe(201);
    const res = await api.post(
      "/v1/policies/pattern-tests",
      { patterns: [regex("a")], text: "a" },
      { key: key.body.key },
    );
    expect(res.status).toBe(403);
    expect(res.body.code).toBe("AUTH_INSUFFICIENT_SCOPE");
  });
});
