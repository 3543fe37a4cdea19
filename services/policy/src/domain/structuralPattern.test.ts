import { describe, expect, it } from "@jest/globals";
import {
  checkCustomPolicyShape,
  checkPatternRules,
  buildCustomPolicy,
  type CustomPolicyInput,
} from "./customPolicy.js";
import { checkStructural, matchStructuralSample, type StructuralJob } from "./structuralBudget.js";
import { MAX_RULE_BYTES, MAX_RULE_DEPTH, structuralProblems } from "./structuralPattern.js";

const SYSTEM = { pattern: "os.system($CMD)" };
const structural = (rule: unknown, more: Partial<CustomPolicyInput["patterns"][number]> = {}) => ({
  type: "structural",
  value: "",
  message: "os.system with a built command",
  language: "python",
  rule: rule as Record<string, unknown>,
  ...more,
});
const fields = (rule: unknown, more = {}) =>
  structuralProblems(structural(rule, more), "patterns[0]").map((p) => `${p.field}:${p.code}`);

describe("custom structural patterns: shape and keys", () => {
  it("takes a language and an ast-grep rule, and stores them as the engine reads them", () => {
    const input: CustomPolicyInput = {
      id: "no-os-system",
      name: "No os.system",
      description: "",
      severity: "error",
      category: "",
      frameworks: [],
      patterns: [structural(SYSTEM, { constraints: { CMD: { kind: "binary_operator" } } })],
      suggestions: [],
      documentation_url: "",
    };
    expect(checkCustomPolicyShape(input)).toEqual([]);
    expect(checkPatternRules(input.patterns)).toEqual([]);
    const built = buildCustomPolicy(input, "2026-01-01T00:00:00.000Z");
    expect(built.patterns[0]).toEqual({
      type: "structural",
      value: JSON.stringify({
        languages: ["python"],
        rule: SYSTEM,
        constraints: { CMD: { kind: "binary_operator" } },
      }),
      message: "os.system with a built command",
    });
  });

  it("names what a type needs and what it does not take (422: the schema takes every field with either type)", () => {
    const shape = (p: CustomPolicyInput["patterns"][number]) =>
      checkPatternRules([p]).map((e) => `${e.field}:${e.code}`);
    expect(shape({ type: "structural", value: "", message: "m" })).toEqual([
      "patterns[0].language:REQUIRED",
      "patterns[0].rule:REQUIRED",
    ]);
    expect(shape(structural(SYSTEM, { value: "os\\.system" }))).toEqual(["patterns[0].value:INVALID_FORMAT"]);
    expect(shape({ type: "regex", value: "x+", message: "m", language: "python", rule: SYSTEM, ok: ["x"] })).toEqual([
      "patterns[0].language:INVALID_FORMAT",
      "patterns[0].rule:INVALID_FORMAT",
      "patterns[0].ok:INVALID_FORMAT",
    ]);
    expect(shape({ type: "regex", value: "", message: "m" })).toEqual(["patterns[0].value:REQUIRED"]);
  });

  it("takes only ast-grep's matching keys, named at their exact path (422)", () => {
    expect(fields(SYSTEM)).toEqual([]);
    expect(
      fields({
        kind: "call",
        has: { kind: "string", stopBy: "end", field: "arguments" },
        inside: { any: [{ kind: "function_definition" }, { pattern: { context: "class A: $X", selector: "block" } }] },
        not: { regex: "^print" },
        nthChild: { position: "2n+1", ofRule: { kind: "call" } },
      }),
    ).toEqual([]);
    expect(fields({ kind: "call", fix: "rm -rf /" })).toEqual(["patterns[0].rule.fix:INVALID_FORMAT"]);
    expect(fields({ kind: "call", has: { kind: "string", transform: {} } })).toEqual([
      "patterns[0].rule.has.transform:INVALID_FORMAT",
    ]);
    expect(fields({ matches: "other-rule" })).toEqual(["patterns[0].rule.matches:INVALID_FORMAT"]);
    expect(fields({ any: [{ kind: "call" }, { rewriters: [] }] })).toEqual([
      "patterns[0].rule.any[1].rewriters:INVALID_FORMAT",
    ]);
    expect(fields({ kind: "call", stopBy: "end" })).toEqual(["patterns[0].rule.stopBy:INVALID_FORMAT"]);
    expect(fields({ kind: "call", has: { stopBy: "end" } })).toEqual(["patterns[0].rule.has:INVALID_FORMAT"]);
    expect(fields({ kind: "call; drop" })).toEqual(["patterns[0].rule.kind:INVALID_FORMAT"]);
    expect(fields({})).toEqual(["patterns[0].rule:INVALID_FORMAT"]);
    expect(fields(["kind"])).toEqual(["patterns[0].rule:INVALID_FORMAT"]);
    expect(fields(SYSTEM, { constraints: { cmd: { kind: "call" } } })).toEqual([
      "patterns[0].constraints.cmd:INVALID_FORMAT",
    ]);
    expect(fields(SYSTEM, { language: "cobol" })).toEqual(["patterns[0].language:INVALID_ENUM"]);
  });

  it("bounds nesting and size", () => {
    let deep: Record<string, unknown> = { kind: "call" };
    for (let i = 0; i < MAX_RULE_DEPTH + 5; i++) deep = { kind: "call", has: deep };
    expect(fields(deep)).toContain(`patterns[0].rule${".has".repeat(MAX_RULE_DEPTH)}:MAX_SIZE_EXCEEDED`);
    // Far deeper than any stack: refused at the depth bound, never recursed into.
    let abyss: Record<string, unknown> = { kind: "call" };
    for (let i = 0; i < 50_000; i++) abyss = { not: abyss };
    expect(() => fields(abyss)).not.toThrow();
    expect(fields({ any: Array.from({ length: 400 }, (_, i) => ({ kind: `k${i}_${"x".repeat(20)}` })) })).toEqual([
      "patterns[0].rule:MAX_SIZE_EXCEEDED",
    ]);
    expect(MAX_RULE_BYTES).toBe(8192);
  });
});

describe("custom structural patterns: tried with ast-grep before they are stored", () => {
  const job = (rule: Record<string, unknown>, more: Partial<StructuralJob> = {}): StructuralJob => ({
    language: "python",
    rule,
    ...more,
  });
  const check = (j: StructuralJob) => checkStructural(j, 400);

  it("accepts a rule that singles out code, with its samples", () => {
    expect(
      check(
        job(SYSTEM, {
          constraints: { CMD: { not: { kind: "string" } } },
          ruleid: ["import os\nos.system('ls ' + d)\n"],
          ok: ["import os\nos.system('ls')\n"],
        }),
      ),
    ).toBeUndefined();
  });

  it("names what ast-grep refuses, in its words", () => {
    expect(check(job({ kind: "no_such_kind" }))).toMatchObject({
      field: "rule",
      message: expect.stringMatching(/ast-grep refuses the rule: .*Kind `no_such_kind` is invalid/s),
      costly: false,
    });
    expect(check(job({ kind: "call", regex: "(" }))?.message).toMatch(/unclosed group/);
    // A regex bomb: ast-grep's regex engine is linear-time and refuses a program over its size limit.
    expect(check(job({ kind: "call", regex: String.raw`\w{1000}{1000}` }))?.message).toMatch(/size limit/);
  });

  it("refuses a rule that matches (nearly) everything", () => {
    expect(check(job({ pattern: "$X" }))).toMatchObject({
      field: "rule",
      message: expect.stringMatching(/single out/),
    });
    expect(check(job({ kind: "module" }))?.message).toMatch(/an empty file/);
    expect(check(job({ not: { kind: "call" } }))?.message).toMatch(/an empty file/);
    expect(check(job({ inside: { kind: "module", stopBy: "end" } }))?.message).toMatch(
      /matches \d+ of the \d+ nodes of ordinary python code/,
    );
  });

  it("refuses a rule over the cost budget, a quadratic one on a small probe", () => {
    // For every identifier, up to the module and back down all of it: minutes on 64 KiB.
    const quadratic = {
      kind: "identifier",
      inside: { stopBy: "end", kind: "module", has: { stopBy: "end", kind: "identifier", regex: "^zz$" } },
    };
    const start = performance.now();
    expect(check(job(quadratic))).toMatchObject({ field: "rule", costly: true });
    expect(performance.now() - start).toBeLessThan(1500);
    expect(
      checkStructural(job({ kind: "identifier", inside: { kind: "module", stopBy: "end" } }), 0.001),
    ).toMatchObject({
      field: "rule",
      costly: true,
      message: expect.stringMatching(/too costly: .* ms per MiB of code \(limit 0.001 ms\)/),
    });
  });

  it("names the sample the rule gets wrong", () => {
    expect(check(job(SYSTEM, { ruleid: ["os.system(x)", "subprocess.run(x)"] }))).toEqual({
      field: "ruleid[1]",
      message: "The rule does not match ruleid sample 1",
      costly: false,
    });
    expect(check(job(SYSTEM, { ok: ["print(1)\nos.system('ls')"] }))).toEqual({
      field: "ok[0]",
      message: "The rule matches ok sample 0 at line 2: os.system('ls')",
      costly: false,
    });
  });

  it("reports sample matches with 1-based lines and code-point columns", () => {
    const text = "s = '😀'; os.system(s)\nos.system('ls')\n";
    expect(matchStructuralSample(job(SYSTEM), text, 1)).toEqual({
      matches: [{ line: 1, column: 10, end_line: 1, end_column: 22, text: "os.system(s)" }],
      truncated: true,
    });
  });
});
