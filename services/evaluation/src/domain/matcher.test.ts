import { describe, expect, it } from "@jest/globals";
import { compilePolicies, scanFile, type PatternToRun, type PolicyToRun } from "./matcher.js";
import { maskSecret } from "./redaction.js";
import { MAX_SNIPPET } from "./snippet.js";

function policy(id: string, patterns: Partial<PatternToRun>[], severity = "error"): PolicyToRun {
  return {
    id,
    severity,
    suggestion: `fix ${id}`,
    patterns: patterns.map((p) => ({ value: "", message: `${id} found`, redact: false, redact_group: 0, ...p })),
  };
}

const evalPolicy = policy("dangerous-eval", [{ value: String.raw`\beval\s*\(` }], "warning");
const awsKey = "AKIAIOSFODNN7EXAMPLE";
const awsPolicy = policy("aws-credentials", [{ value: String.raw`\b(?:AKIA|ASIA)[A-Z0-9]{16}\b`, redact: true }]);
const passwordPolicy = policy("hardcoded-credentials", [{ value: String.raw`(?i)password\s*=\s*"([^"]{4,})"`, redact: true, redact_group: 1 }]);

const scan = (content: string, policies: PolicyToRun[] = [evalPolicy]) => scanFile("src/app.ts", content, compilePolicies(policies)).findings;

describe("positions", () => {
  it("reports 1-based lines and columns counted in code points", () => {
    // 😀 is two UTF-16 units but one code point; 中文 are one unit each.
    const [finding] = scan("first line\n  😀中文 eval(x)\n");
    expect(finding).toMatchObject({ line: 2, column: 7, file: "src/app.ts", policy_id: "dangerous-eval", severity: "warning" });
    expect(finding!.code_snippet).toBe("😀中文 eval(x)");
  });

  it("counts columns after astral characters on very long lines and with CRLF endings", () => {
    const content = `a\r\n${"😀".repeat(300)}eval(1) eval(2)\r\neval(3)`;
    expect(scan(content).map((f) => [f.line, f.column])).toEqual([
      [2, 301],
      [2, 309],
      [3, 1],
    ]);
  });

  it("reports every match of a pattern on one line, in reading order across policies", () => {
    const findings = scan(`x = eval(a) + eval(b); y = "${awsKey}"; eval(c)`, [evalPolicy, awsPolicy]);
    expect(findings.map((f) => `${f.policy_id}@${f.column}`)).toEqual(["dangerous-eval@5", "dangerous-eval@15", "aws-credentials@29", "dangerous-eval@52"]);
  });

  it("reports a match spanning lines on the line where it starts", () => {
    const findings = scan("one\nBEGIN\nsecret\n", [policy("multi", [{ value: String.raw`BEGIN\nsecret` }])]);
    expect(findings).toEqual([expect.objectContaining({ line: 2, column: 1, code_snippet: "BEGIN" })]);
  });

  it("skips empty matches instead of reporting or looping on them", () => {
    const findings = scan("ab😀b", [policy("maybe-b", [{ value: "b*" }])]);
    expect(findings.map((f) => f.column)).toEqual([2, 4]);
  });
});

describe("findings", () => {
  it("carry the pattern message and the policy suggestion and severity", () => {
    const [finding] = scan("eval(x)");
    expect(finding).toEqual({
      policy_id: "dangerous-eval",
      severity: "warning",
      file: "src/app.ts",
      line: 1,
      column: 1,
      message: "dangerous-eval found",
      code_snippet: "eval(x)",
      suggestion: "fix dangerous-eval",
    });
  });

  it("find nothing in a clean file", () => {
    expect(scan("const evaluate = (x) => x;\n", [evalPolicy, awsPolicy, passwordPolicy])).toEqual([]);
  });
});

describe("redaction", () => {
  it("masks the whole match, keeping a short prefix", () => {
    const [finding] = scan(`const key = "${awsKey}";`, [awsPolicy]);
    expect(finding!.code_snippet).toBe('const key = "AKIA****";');
  });

  it("masks only the capture group holding the secret", () => {
    const [finding] = scan('  password = "hunter22"  ', [passwordPolicy]);
    expect(finding!.code_snippet).toBe('password = "hu****"');
  });

  it("never reveals more than a quarter of a secret", () => {
    expect(maskSecret(awsKey)).toBe("AKIA****");
    expect(maskSecret("hunter22")).toBe("hu****");
    expect(maskSecret("abcd")).toBe("a****");
    expect(maskSecret("abc")).toBe("****");
    expect(maskSecret("😀😀😀😀😀😀😀😀")).toBe("😀😀****");
  });

  it("masks secrets in every snippet of the file, including repeats and other findings' lines", () => {
    const content = [
      `password = "hunter22" // hunter22 again`,
      `eval(login("hunter22", "${awsKey}"))`,
      `const other = "${awsKey}"; eval(x)`,
    ].join("\n");
    const findings = scan(content, [evalPolicy, awsPolicy, passwordPolicy]);
    expect(findings.map((f) => f.policy_id)).toEqual(["hardcoded-credentials", "dangerous-eval", "aws-credentials", "aws-credentials", "dangerous-eval"]);
    const json = JSON.stringify(findings);
    expect(json).not.toContain("hunter22");
    expect(json).not.toContain(awsKey);
    expect(findings[0]!.code_snippet).toBe('password = "hu****" // hu**** again');
    expect(findings[1]!.code_snippet).toBe('eval(login("hu****", "AKIA****"))');
  });

  it("masks a secret that continues onto the next line on both lines", () => {
    const secretPolicy = policy("pem", [{ value: String.raw`KEY\n[A-Z]+`, redact: true }]);
    const findings = scan("x KEY\nABCDEFGHIJKL eval(y)", [secretPolicy, evalPolicy]);
    // The part on the first line is too short to keep any prefix of.
    expect(findings.map((f) => f.code_snippet)).toEqual(["x ****", "ABC**** eval(y)"]);
  });
});

describe("snippets", () => {
  it("keep at most 200 code points around the match, marking the cuts", () => {
    const line = `${"a".repeat(1000)} eval(x) ${"b".repeat(1000)}`;
    const [finding] = scan(`    ${line}    `);
    const snippet = finding!.code_snippet;
    expect(Array.from(snippet)).toHaveLength(MAX_SNIPPET);
    expect(snippet.startsWith("…")).toBe(true);
    expect(snippet.endsWith("…")).toBe(true);
    const at = snippet.indexOf("eval(x)");
    // Centred: about as much context before the match as after it.
    expect(Math.abs(at - (MAX_SNIPPET - at - "eval(x)".length))).toBeLessThanOrEqual(2);
  });

  it("count the budget in code points and never split a surrogate pair", () => {
    const [finding] = scan(`${"😀".repeat(500)}eval(x)${"😀".repeat(500)}`);
    const chars = Array.from(finding!.code_snippet);
    expect(chars).toHaveLength(MAX_SNIPPET);
    expect(chars.every((c) => c === "…" || c === "😀" || "eval(x)".includes(c))).toBe(true);
  });

  it("show a line start or end as is when the match is near it", () => {
    const [finding] = scan(`eval(x) ${"b".repeat(500)}`);
    expect(finding!.code_snippet.startsWith("eval(x) bbb")).toBe(true);
    expect(finding!.code_snippet.endsWith("…")).toBe(true);
  });

  it("mask secrets near the cut of a long line", () => {
    const [finding] = scan(`${"a".repeat(300)} password = "${"s".repeat(500)}"`, [passwordPolicy]);
    expect(finding!.code_snippet).not.toContain("s".repeat(5));
    expect(finding!.code_snippet).toContain('password = "ssss****"');
  });

});

describe("limits", () => {
  it("count every match but describe only the first ones, in reading order across patterns", () => {
    const content = `eval(a) "${awsKey}"\neval(b) eval(c)\n"${awsKey}"`;
    const result = scanFile("f.js", content, compilePolicies([awsPolicy, evalPolicy]), 3);
    expect(result.matched).toBe(5);
    expect(result.bySeverity).toEqual({ error: 2, warning: 3 });
    expect(result.findings.map((f) => `${f.policy_id}@${f.line}:${f.column}`)).toEqual(["dangerous-eval@1:1", "aws-credentials@1:10", "dangerous-eval@2:1"]);
    expect(scanFile("f.js", content, compilePolicies([awsPolicy]), 0)).toEqual({ findings: [], matched: 2, bySeverity: { error: 2 } });
  });

  it("handle a minified 1 MiB line with a hundred thousand matches", () => {
    const content = "eval(x);".repeat(131072);
    const result = scanFile("bundle.min.js", content, compilePolicies([evalPolicy]), 1000);
    expect(result.matched).toBe(131072);
    expect(result.findings).toHaveLength(1000);
    expect(result.findings[999]).toMatchObject({ line: 1, column: 8 * 999 + 1 });
    expect(Array.from(result.findings[500]!.code_snippet).length).toBeLessThanOrEqual(MAX_SNIPPET);
  });
});
