import { describe, expect, it } from "@jest/globals";
import {
  buildCustomPolicy,
  checkCustomPolicyShape,
  checkPatternRules,
  type CustomPolicyInput,
} from "./customPolicy.js";

const valid: CustomPolicyInput = {
  id: "no-console-log",
  name: "No console.log",
  description: "Debug output left in code",
  severity: "warning",
  category: "",
  frameworks: ["nist-ssdf:PW.5.1"],
  patterns: [{ type: "regex", value: String.raw`console\.log\(`, message: "console.log call" }],
  suggestions: [{ text: "Use the logger" }],
  documentation_url: "",
};

describe("custom policy checks", () => {
  it("accepts a well-formed policy and fills defaults", () => {
    expect(checkCustomPolicyShape(valid)).toEqual([]);
    expect(checkPatternRules(valid.patterns)).toEqual([]);
    const built = buildCustomPolicy(
      { ...valid, patterns: [{ type: "regex", value: "x+", message: "" }] },
      "2026-01-01T00:00:00.000Z",
    );
    expect(built).toMatchObject({ category: "custom", enabled: true, created_at: "2026-01-01T00:00:00.000Z" });
    expect(built.patterns[0]!.message).toBe("No console.log");
  });

  it("reports shape problems with exact field paths", () => {
    const fields = (input: Partial<CustomPolicyInput>) =>
      checkCustomPolicyShape({ ...valid, ...input }).map((p) => `${p.field}:${p.code}`);
    expect(fields({ id: "Bad_Id" })).toEqual(["id:INVALID_FORMAT"]);
    expect(fields({ id: "abc" })).toEqual([]);
    expect(fields({ id: "ab" })).toEqual(["id:INVALID_FORMAT"]);
    expect(fields({ id: `a${"b".repeat(63)}` })).toEqual([]);
    expect(fields({ id: `a${"b".repeat(64)}` })).toEqual(["id:INVALID_FORMAT"]);
    expect(fields({ id: "-abc" })).toEqual(["id:INVALID_FORMAT"]);
    expect(fields({ patterns: [] })).toEqual(["patterns:MIN_SIZE_REQUIRED"]);
    expect(fields({ severity: "fatal" })).toEqual(["severity:INVALID_ENUM"]);
    expect(fields({ name: " " })).toEqual(["name:REQUIRED"]);
    expect(fields({ frameworks: ["soc2:CC6.1", "CC6.1"] })).toEqual(["frameworks[1]:INVALID_FORMAT"]);
    expect(fields({ frameworks: ["hipaa:164.312(a)(1)", "nist-800-53:IA-5(7)", "gdpr:Art 32"] })).toEqual([
      "frameworks[2]:INVALID_FORMAT",
    ]);
    expect(fields({ documentation_url: "javascript:alert(1)" })).toEqual(["documentation_url:INVALID_FORMAT"]);
  });

  it("answers what a pattern's type needs as a rule of the domain (422), not of the schema: the schema takes every field with either type", () => {
    const rule = (p: { type: string; value: string; language?: string }) =>
      checkPatternRules([{ message: "m", ...p }]).map((e) => `${e.field}:${e.code}`);
    expect(rule({ type: "regex", value: "" })).toEqual(["patterns[0].value:REQUIRED"]);
    expect(rule({ type: "regex", value: "x", language: "go" })).toEqual(["patterns[0].language:INVALID_FORMAT"]);
  });

  it("rejects what RE2 cannot run, in RE2's words", () => {
    const rules = (value: string) => checkPatternRules([{ type: "regex", value, message: "m" }]);
    expect(rules("(?=x)")).toEqual([
      {
        field: "patterns[0].value",
        code: "INVALID_FORMAT",
        message: expect.stringMatching(/invalid perl operator: \(\?=/),
      },
    ]);
    expect(rules(String.raw`(a)\1`)).toEqual([
      {
        field: "patterns[0].value",
        code: "INVALID_FORMAT",
        message: expect.stringMatching(/invalid escape sequence: \\1/),
      },
    ]);
    expect(rules("[a-z")[0]!.message).toMatch(/missing \]/);
    expect(rules("a*")[0]!.message).toMatch(/empty string/);
  });

  it("rejects pattern types other than regex and structural", () => {
    expect(checkPatternRules([{ type: "glob", value: "*.pem", message: "m" }])).toEqual([
      { field: "patterns[0].type", code: "INVALID_ENUM", message: "pattern type must be one of: regex, structural" },
    ]);
  });
});
