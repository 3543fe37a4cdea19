// The engine: positions, findings, redaction, snippets, limits, one pass and file kinds.
import { describe, expect, it } from "@jest/globals";
import RE2 from "re2";
import { maskSecret } from "./redaction.js";
import { MAX_SNIPPET } from "./snippet.js";
import { awsKey, awsPolicy, evalPolicy, passwordPolicy, policy, scan, scanFile } from "../../test/engineFixtures.js";

describe("positions", () => {
  it("reports 1-based lines and columns counted in code points", () => {
    // 😀 is two UTF-16 units but one code point; 中文 are one unit each.
    const [finding] = scan("first line\n  😀中文 eval(x)\n");
    expect(finding).toMatchObject({
      line: 2,
      column: 7,
      file: "src/app.ts",
      policy_id: "dangerous-eval",
      severity: "warning",
    });
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
    expect(findings.map((f) => `${f.policy_id}@${f.column}`)).toEqual([
      "dangerous-eval@5",
      "dangerous-eval@15",
      "aws-credentials@29",
      "dangerous-eval@52",
    ]);
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
      rule_id: "dangerous-eval-1",
      severity: "warning",
      file: "src/app.ts",
      line: 1,
      column: 1,
      message: "dangerous-eval found",
      code_snippet: "eval(x)",
      suggestion: "fix dangerous-eval",
      fingerprint: expect.stringMatching(/^[0-9a-f]{32}$/),
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
    expect(findings.map((f) => f.policy_id)).toEqual([
      "hardcoded-credentials",
      "dangerous-eval",
      "aws-credentials",
      "aws-credentials",
      "dangerous-eval",
    ]);
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
    const [finding] = scan(`${"a".repeat(300)} password = "${"Qx7z".repeat(125)}"`, [passwordPolicy]);
    expect(finding!.code_snippet).not.toContain("Qx7zQ");
    expect(finding!.code_snippet).toContain('password = "Qx7z****"');
  });
});

describe("limits", () => {
  it("count every match but describe only the first ones, in reading order across patterns", () => {
    const content = `eval(a) "${awsKey}"\neval(b) eval(c)\n"${awsKey}"`;
    const result = scanFile("f.js", content, [awsPolicy, evalPolicy], 3);
    expect(result.matched).toBe(5);
    expect(result.bySeverity).toEqual({ error: 2, warning: 3 });
    expect(result.findings.map((f) => `${f.policy_id}@${f.line}:${f.column}`)).toEqual([
      "dangerous-eval@1:1",
      "aws-credentials@1:10",
      "dangerous-eval@2:1",
    ]);
    expect(scanFile("f.js", content, [awsPolicy], 0)).toEqual({
      findings: [],
      suppressions: [],
      matched: 2,
      bySeverity: { error: 2 },
    });
  });

  it("handle a 1 MiB line with a hundred thousand matches", () => {
    // (.txt: a .js file shaped like this is skipped as minified; see "file kinds")
    const content = "eval(x);".repeat(131072);
    const result = scanFile("data.txt", content, [evalPolicy], 1000);
    expect(result.matched).toBe(131072);
    expect(result.findings).toHaveLength(1000);
    expect(result.findings[999]).toMatchObject({ line: 1, column: 8 * 999 + 1 });
    expect(Array.from(result.findings[500]!.code_snippet).length).toBeLessThanOrEqual(MAX_SNIPPET);
  });
});

describe("one pass", () => {
  it("finds the same as running each pattern alone, for many patterns at once", () => {
    const many = Array.from({ length: 120 }, (_, i) =>
      policy(`rule-${i}`, [{ value: String.raw`\btoken${i}_[a-z]{4}\b` }]),
    );
    const content = Array.from({ length: 120 }, (_, i) => (i % 7 === 0 ? `x = token${i}_abcd;` : `y = ${i};`)).join(
      "\n",
    );
    const all = scanFile("a.txt", content, many)
      .findings.map((f) => f.policy_id)
      .sort();
    const alone = many.flatMap((p) => scanFile("a.txt", content, [p]).findings.map((f) => f.policy_id)).sort();
    expect(all).toEqual(alone);
    expect(all).toHaveLength(18);
  });

  it("reports a pattern with a leading lazy run (`[\\w.-]{0,n}?`) where RE2 matches the whole pattern", () => {
    // The engine searches such a pattern without its run and extends each match back over it:
    // starts, secrets and masked snippets must be those of the whole pattern, run here by RE2 alone.
    const value = String.raw`[\w.-]{0,6}?(?i:key|token)[ \t]*[=:][ \t]*"?([\w.]{4,})"?`;
    const lines = [
      "a_very_long_identifier_key = 'x'; app.api_key=s3cr3tValue",
      "key=abcd1234 token:wxyz9876 my.key=zzzz0000",
      "x-token-key = 12345678",
      'k=1 KEY = "quoted.value" something_token=next',
      "tokenkey=aaaa.bbbb",
      ".......key=dots1234",
    ];
    const content = lines.join("\n");
    const engine = policy("lazy", [{ value, redact: true, redact_group: 1 }]);
    const reference = new RE2(value, "gmdu");
    const expected: string[] = [];
    for (let m = reference.exec(content); m; m = reference.exec(content)) {
      const lineStart = content.lastIndexOf("\n", m.index - 1) + 1;
      const line = content.slice(0, m.index).split("\n").length;
      expected.push(`${line}:${m.index - lineStart + 1} ${m[1]}`);
    }
    expect(expected.length).toBeGreaterThan(8);
    const findings = scanFile("a.txt", content, [engine]).findings;
    expect(findings.map((f, i) => `${f.line}:${f.column} ${expected[i]!.split(" ")[1]}`)).toEqual(expected);
    for (const [i, f] of findings.entries()) {
      const secret = expected[i]!.split(" ")[1]!;
      expect(f.code_snippet).toContain(maskSecret(secret));
      expect(f.code_snippet).not.toContain(secret);
    }
  });

  it("stays linear in the input: ^(a+)+$ over 200 KB", () => {
    const started = process.hrtime.bigint();
    const result = scanFile("a.txt", "a".repeat(200_000) + "!", [policy("redos", [{ value: "^(a+)+$" }])]);
    // A backtracking engine would not finish; RE2 answers at once. The bound is generous on purpose.
    expect(Number(process.hrtime.bigint() - started) / 1e6).toBeLessThan(2000);
    expect(result.findings).toEqual([]);
  });
});

describe("file kinds", () => {
  it("skips lock files, binary files and minified bundles, and says why", () => {
    expect(scanFile("web/package-lock.json", `"x": "eval(1)"`, [evalPolicy]).skipped).toBe("lockfile");
    expect(scanFile("logo.png", "eval(1)\u0000\u0001", [evalPolicy]).skipped).toBe("binary");
    expect(scanFile("dist/app.min.js", "eval(1)", [evalPolicy]).skipped).toBe("minified");
    expect(scanFile("dist/app.js.map", `{"sourcesContent":["eval(1)"]}`, [evalPolicy]).skipped).toBe("sourcemap");
    expect(scanFile("dist/app.js", "eval(1);".repeat(1000), [evalPolicy]).skipped).toBe("minified");
    expect(scanFile("src/app.js", "eval(1);\n".repeat(1000), [evalPolicy]).skipped).toBeUndefined();
  });

  it("honours a policy's exclude_paths globs", () => {
    const excluded = { ...evalPolicy, exclude_paths: ["test/**", "**/*.spec.ts"] };
    expect(scanFile("test/unit/a.ts", "eval(1)", [excluded]).findings).toEqual([]);
    expect(scanFile("src/a.spec.ts", "eval(1)", [excluded]).findings).toEqual([]);
    expect(scanFile("src/a.ts", "eval(1)", [excluded]).findings).toHaveLength(1);
  });
});
