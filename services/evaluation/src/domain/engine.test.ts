import { describe, expect, it } from "@jest/globals";
import { crc32Base62 } from "@verdict/kit";
import RE2 from "re2";
import { compileEngine, type PatternToRun, type PolicyToRun } from "./engine.js";
import { maskSecret } from "./redaction.js";
import { MAX_SNIPPET } from "./snippet.js";

function policy(id: string, patterns: Partial<PatternToRun>[], severity = "error"): PolicyToRun {
  return {
    id,
    severity,
    category: "test",
    suggestion: `fix ${id}`,
    patterns: patterns.map((p, i) => ({
      value: "",
      message: `${id} found`,
      redact: false,
      redact_group: 0,
      rule_id: `${id}-${i + 1}`,
      keywords: [],
      min_entropy: 0,
      paths: [],
      allowlist: [],
      generic: false,
      ...p,
    })),
    exclude_paths: [],
  };
}

const evalPolicy = policy("dangerous-eval", [{ value: String.raw`\beval\s*\(` }], "warning");
const awsKey = "AKIAZ7VQ3X4M2N8P5R6T";
const awsPolicy = policy("aws-credentials", [{ value: String.raw`\b(?:AKIA|ASIA)[A-Z0-9]{16}\b`, redact: true }]);
const passwordPolicy = policy("hardcoded-credentials", [
  { value: String.raw`(?i)password\s*=\s*"([^"]{4,})"`, redact: true, redact_group: 1 },
]);

const scanFile = (path: string, content: string, policies: PolicyToRun[], limit?: number) =>
  compileEngine(policies).scan(path, Buffer.from(content, "utf8"), {
    allowSuppression: true,
    ...(limit !== undefined ? { limit } : {}),
  });
const scan = (content: string, policies: PolicyToRun[] = [evalPolicy]) =>
  scanFile("src/app.ts", content, policies).findings;

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

describe("noise control", () => {
  it("runs a rule only on files that mention one of its keywords", () => {
    const generic = policy("generic", [{ value: String.raw`[A-Za-z0-9]{24}`, keywords: ["token", "secret"] }]);
    expect(scanFile("a.txt", "id = Zx9Qw8Er7Ty6Ui5Op4As3Df2", [generic]).findings).toEqual([]);
    expect(scanFile("a.txt", "TOKEN = Zx9Qw8Er7Ty6Ui5Op4As3Df2", [generic]).findings).toHaveLength(1);
  });

  it("matches keywords in ASCII letters of either case only, also for a rule the set looks for by its keywords", () => {
    // A counted repeat above 16: the one-pass set looks for the keywords, not the pattern.
    const costly = policy("costly", [{ value: String.raw`[A-Za-z0-9]{24,64}`, keywords: ["kit_token"] }]);
    const secret = "Zx9Qw8Er7Ty6Ui5Op4As3Df2";
    expect(scanFile("a.txt", `KIT_Token = ${secret}`, [costly]).findings).toHaveLength(1);
    expect(scanFile("a.txt", `kit-token = ${secret}`, [costly]).findings).toEqual([]);
    // U+212A KELVIN SIGN folds to "k" in Unicode, but is not the keyword.
    expect(scanFile("a.txt", `\u212AIT_TOKEN = ${secret}`, [costly]).findings).toEqual([]);
    for (const [name, rule] of [
      ["in the set", costly],
      ["after the set", policy("short", [{ value: String.raw`[A-Za-z0-9]{24}`, keywords: ["kit_token"] }])],
    ] as const)
      expect([name, scanFile("a.txt", `x = ${secret}\nkit_TOKEN\n`, [rule]).findings.length]).toEqual([name, 1]);
  });

  it("runs a rule only on the paths it is for", () => {
    const py = policy("py-exec", [{ value: String.raw`\bexec\(`, paths: [String.raw`(?i)\.py$`] }]);
    expect(scanFile("a.py", "exec(code)", [py]).findings).toHaveLength(1);
    expect(scanFile("a.js", "exec(code)", [py]).findings).toEqual([]);
  });

  it("drops low-entropy secrets where the rule sets a threshold", () => {
    const generic = policy("generic", [
      { value: String.raw`key = "([^"]+)"`, redact: true, redact_group: 1, min_entropy: 3.5 },
    ]);
    expect(scanFile("a.txt", 'key = "aaaaaaaabbbbbbbb"', [generic]).findings).toEqual([]);
    expect(scanFile("a.txt", 'key = "q8Z!r4Lp0@xV7mN2"', [generic]).findings).toHaveLength(1);
  });

  it("ignores documentation examples and placeholders in secret findings", () => {
    for (const value of ["AKIAIOSFODNN7EXAMPLE"]) expect(scan(`k = "${value}"`, [awsPolicy])).toEqual([]);
    for (const value of [
      "${DB_PASSWORD}",
      "<your-password>",
      "xxxxxxxx",
      "changeme",
      "{{ .Values.password }}",
      "$PASSWORD",
      "pw_xxxxxxxxxxxx",
      "sk_****************",
      "abc...",
    ]) {
      expect({ value, findings: scan(`password = "${value}"`, [passwordPolicy]) }).toEqual({ value, findings: [] });
    }
    expect(scan('password = "Tr0ub4dor&3"', [passwordPolicy])).toHaveLength(1);
  });

  it("applies a rule's own allowlist to the secret", () => {
    const stripe = policy("stripe", [
      { value: String.raw`\bsk_(?:live|test)_[A-Za-z0-9]{24}\b`, redact: true, allowlist: ["^sk_test_"] },
    ]);
    expect(scanFile("a.txt", "sk_test_abcdefghijklmnopqrstuvwx", [stripe]).findings).toEqual([]);
    expect(scanFile("a.txt", "sk_live_abcdefghijklmnopqrstuvwx", [stripe]).findings).toHaveLength(1);
  });
});

describe("rule conditions", () => {
  const token = (extra: Partial<PatternToRun>) =>
    policy("tok", [{ value: String.raw`\btok_([A-Za-z0-9]{16})\b`, redact: true, redact_group: 1, ...extra }]);
  const secret = "tok_Zx9Qw8Er7Ty6Ui5O";

  it("drop a match whose whole text matches a match_allowlist pattern", () => {
    const p = token({ match_allowlist: ["^tok_Zx9"] });
    expect(scanFile("a.txt", `k = ${secret}`, [p]).findings).toEqual([]);
    expect(scanFile("a.txt", "k = tok_Ab9Qw8Er7Ty6Ui5O", [p]).findings).toHaveLength(1);
  });

  it("drop a match on a line matching a line_allowlist pattern, and only on that line", () => {
    const p = token({ line_allowlist: [String.raw`(?i)\bexample\b`] });
    const findings = scanFile("a.txt", `# example: k = ${secret}\nk = ${secret}\n`, [p]).findings;
    expect(findings.map((f) => f.line)).toEqual([2]);
  });

  it("report only in files matching a file_requires pattern and in none matching a file_excludes one", () => {
    const requires = token({ file_requires: [String.raw`(?m)^import tok\b`] });
    expect(scanFile("a.py", `k = "${secret}"`, [requires]).findings).toEqual([]);
    expect(scanFile("a.py", `import tok\nk = "${secret}"`, [requires]).findings).toHaveLength(1);
    const excludes = token({ file_excludes: [String.raw`(?m)^# generated`] });
    expect(scanFile("a.py", `# generated\nk = "${secret}"`, [excludes]).findings).toEqual([]);
    expect(scanFile("a.py", `k = "${secret}"`, [excludes]).findings).toHaveLength(1);
  });

  it("drop a secret containing a stop-word, whatever its case", () => {
    const p = token({ stopwords: ["abcd"] });
    expect(scanFile("a.txt", "k = tok_Zx9QABCDr7Ty6Ui5O", [p]).findings).toEqual([]);
    expect(scanFile("a.txt", `k = ${secret}`, [p]).findings).toHaveLength(1);
  });

  it("refuse to compile a rule naming an unknown check", () => {
    expect(() => compileEngine([token({ checks: ["no-such-check"] })])).toThrow(/unknown check 'no-such-check'/);
  });
});

describe("structural checks", () => {
  const github = policy("gh", [{ value: String.raw`\bghp_[A-Za-z0-9]{36}\b`, redact: true, checks: ["github-crc32"] }]);
  const jwt = policy("jwt", [
    {
      value: String.raw`\b(eyJ[A-Za-z0-9_-]{10,}\.eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,})`,
      redact: true,
      redact_group: 1,
      checks: ["jwt-header"],
    },
  ]);
  const b64 = (o: object) => Buffer.from(JSON.stringify(o)).toString("base64url");

  it("report a GitHub token only when its CRC-32 checksum holds", () => {
    const random = "WB9JaaJlwCrqaADrvP9J8HYc7l6VRr";
    const valid = `ghp_${random}${crc32Base62(random)}`;
    expect(scanFile("a.sh", `T=${valid}`, [github]).findings).toHaveLength(1);
    const flipped = `ghp_${random}${crc32Base62(random).split("").reverse().join("")}`;
    expect(scanFile("a.sh", `T=${flipped}`, [github]).findings).toEqual([]);
  });

  it("report a JWT only when its header is JSON naming an algorithm", () => {
    const body = `${b64({ sub: "1234567890", name: "Jo" })}.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c`;
    expect(scanFile("a.ts", `t = "${b64({ alg: "HS256", typ: "JWT" })}.${body}"`, [jwt]).findings).toHaveLength(1);
    expect(scanFile("a.ts", `t = "eyJub3Rqc29uIGF0IGFsbA.${body}"`, [jwt]).findings).toEqual([]);
  });
});

describe("one secret, one finding", () => {
  const generic = policy(
    "generic-secrets",
    [{ value: String.raw`token = "([^"]+)"`, redact: true, redact_group: 1, min_entropy: 3, generic: true }],
    "warning",
  );
  const github = policy("source-control-tokens", [{ value: String.raw`\bghp_[A-Za-z0-9]{36}\b`, redact: true }]);
  const token = "ghp_R8x2Kq9Lm4Np7Tz1Vb6Wc3Yd5Fh0Jg2Ks8Ma";

  it("lets a specific rule's finding replace a generic rule's finding of the same secret", () => {
    const result = scanFile("a.py", `token = "${token}"`, [generic, github]);
    expect(result.findings.map((f) => f.policy_id)).toEqual(["source-control-tokens"]);
    expect(
      scanFile("a.py", `token = "q8Z!r4Lp0@xV7mN2e5"`, [generic, github]).findings.map((f) => f.policy_id),
    ).toEqual(["generic-secrets"]);
  });

  it("reports a secret that two generic rules found once: the more severe policy's, else the rule listed first", () => {
    const password = policy(
      "hardcoded-credentials",
      [{ value: String.raw`token = "([^"]+)"`, redact: true, redact_group: 1, generic: true }],
      "error",
    );
    const twice = policy(
      "generic-secrets",
      [
        { value: String.raw`token = "([^"]+)"`, redact: true, redact_group: 1, generic: true },
        { value: String.raw`(?i)TOKEN = "([^"]+)"`, redact: true, redact_group: 1, generic: true },
      ],
      "warning",
    );
    const line = `token = "q8Z!r4Lp0@xV7mN2e5"`;
    expect(scanFile("a.py", line, [generic, password]).findings.map((f) => f.rule_id)).toEqual([
      "hardcoded-credentials-1",
    ]);
    expect(scanFile("a.py", line, [password, generic]).findings.map((f) => f.rule_id)).toEqual([
      "hardcoded-credentials-1",
    ]);
    expect(scanFile("a.py", line, [twice]).findings.map((f) => f.rule_id)).toEqual(["generic-secrets-1"]);
    // Different secrets on one line are different findings.
    expect(scanFile("a.py", `${line}; token = "Zx9Qw8Er7Ty6Ui5Op4As"`, [generic, password]).findings).toHaveLength(2);
  });

  it("silences the secret completely when its specific finding is suppressed", () => {
    const result = scanFile("a.py", `token = "${token}"  # verdict-ignore source-control-tokens: revoked`, [
      generic,
      github,
    ]);
    expect(result.findings).toEqual([]);
    expect(result.suppressions.map((s) => s.policy_id)).toEqual(["source-control-tokens"]);
  });
});

describe("inline suppression", () => {
  const content = [
    `a = eval(x) // verdict-ignore dangerous-eval: trusted input from the build`,
    `# verdict-ignore`,
    `b = eval(y)`,
    `// verdict-ignore aws-credentials: wrong policy named`,
    `c = eval(z)`,
    `d = "verdict-ignore"; eval(w)`,
  ].join("\n");

  it("silences findings on the marked line or the line after a marker, recording why", () => {
    const result = scanFile("a.js", content, [evalPolicy]);
    expect(result.findings.map((f) => f.line)).toEqual([5, 6]);
    expect(result.suppressions).toEqual([
      {
        policy_id: "dangerous-eval",
        rule_id: "dangerous-eval-1",
        file: "a.js",
        line: 1,
        reason: "trusted input from the build",
        fingerprint: expect.stringMatching(/^[0-9a-f]{32}$/),
      },
      {
        policy_id: "dangerous-eval",
        rule_id: "dangerous-eval-1",
        file: "a.js",
        line: 3,
        reason: "",
        fingerprint: expect.stringMatching(/^[0-9a-f]{32}$/),
      },
    ]);
    expect(result.matched).toBe(2);
  });

  it("gives a suppressed finding the fingerprint it is reported with when not suppressed", () => {
    const silenced = scanFile("a.js", content, [evalPolicy]).suppressions;
    const reported = compileEngine([evalPolicy]).scan("a.js", Buffer.from(content), { allowSuppression: false });
    const byLine = new Map(reported.findings.map((f) => [f.line, f.fingerprint]));
    expect(byLine.get(1)).toMatch(/^[0-9a-f]{32}$/);
    expect(silenced.map((s) => s.fingerprint)).toEqual([byLine.get(1), byLine.get(3)]);
  });

  it("can be turned off, and then every finding stands", () => {
    const result = compileEngine([evalPolicy]).scan("a.js", Buffer.from(content), { allowSuppression: false });
    expect(result.findings.map((f) => f.line)).toEqual([1, 3, 5, 6]);
    expect(result.suppressions).toEqual([]);
  });

  it("still masks a suppressed secret wherever else it appears", () => {
    const text = `k = "${awsKey}" # verdict-ignore: rotated already\nlog("${awsKey}") eval(1)`;
    const result = scanFile("a.py", text, [awsPolicy, evalPolicy]);
    expect(result.suppressions).toHaveLength(1);
    expect(JSON.stringify(result)).not.toContain(awsKey);
  });
});

describe("structural rules", () => {
  // A syntax-aware rule: a Python call os.system(x) whose argument reads a name.
  const systemRule = (keywords: string[] = ["system"]) =>
    policy("command-injection", [
      {
        type: "structural",
        value: JSON.stringify({
          languages: ["python"],
          rule: { pattern: "os.system($CMD)" },
          constraints: { CMD: { any: [{ kind: "identifier" }, { has: { kind: "identifier", stopBy: "end" } }] } },
        }),
        rule_id: "python-os-system-variable",
        keywords,
      },
    ]);

  it("reports matches of the syntax tree, not of text in strings or comments, at code-point columns", () => {
    const source = [
      "import os",
      "# os.system(cmd) in a comment",
      'HELP = "os.system(cmd) in a string"',
      'os.system("ls")',
      'label = "😀中文"; os.system("rm " + path)',
      "",
    ].join("\n");
    const findings = scanFile("tools/run.py", source, [systemRule()]).findings;
    expect(findings.map((f) => [f.rule_id, f.line, f.column, f.code_snippet])).toEqual([
      ["python-os-system-variable", 5, 16, 'label = "😀中文"; os.system("rm " + path)'],
    ]);
  });

  it("runs beside RE2 rules, through suppression, limits and exclude_paths alike", () => {
    const source =
      "import os\nos.system(cmd)  # verdict-ignore command-injection: fixed input\neval(x)\nos.system(x)\n";
    const both = [systemRule(), policy("dangerous-eval", [{ value: String.raw`\beval\s*\(` }])];
    const scanned = scanFile("run.py", source, both);
    expect(scanned.findings.map((f) => `${f.rule_id}@${f.line}`)).toEqual([
      "dangerous-eval-1@3",
      "python-os-system-variable@4",
    ]);
    expect(scanned.suppressions).toEqual([expect.objectContaining({ rule_id: "python-os-system-variable", line: 2 })]);
    expect(scanFile("run.py", source, both, 1)).toMatchObject({ matched: 2, findings: [{ line: 3 }] });
    const excluded = { ...systemRule(), exclude_paths: ["scripts/**"] };
    expect(scanFile("scripts/run.py", "os.system(x)\n", [excluded]).findings).toEqual([]);
  });

  it("parses only files of the rule's language that contain one of its keywords and meet its file conditions", () => {
    expect(scanFile("run.rb", "os.system(x)\n", [systemRule()]).findings).toEqual([]);
    expect(scanFile("run.py", "os.system(x)\n", [systemRule(["popen"])]).findings).toEqual([]);
    expect(scanFile("run.py", "os.system(x)\n", [systemRule(["popen", "system"])]).findings).toHaveLength(1);
    // file_requires: RE2 conditions on the file, as for RE2 rules.
    const requiring = (re: string) => [
      { ...systemRule(), patterns: [{ ...systemRule().patterns[0]!, file_requires: [re] }] },
    ];
    expect(scanFile("run.py", "os.system(x)\n", requiring(String.raw`^import os$`)).findings).toEqual([]);
    expect(scanFile("run.py", "import os\nos.system(x)\n", requiring(String.raw`^import os$`)).findings).toHaveLength(
      1,
    );
  });

  it("does not parse a file over the per-file budget; its RE2 rules still run", () => {
    const big = `os.system(x)\neval(y)\n${"# padding line of a large generated module\n".repeat(13_000)}`;
    expect(Buffer.byteLength(big)).toBeGreaterThan(512 * 1024);
    const found = scanFile("big.py", big, [
      systemRule(),
      policy("dangerous-eval", [{ value: String.raw`\beval\s*\(` }]),
    ]);
    expect(found.findings.map((f) => f.rule_id)).toEqual(["dangerous-eval-1"]);
    expect(scanFile("small.py", "os.system(x)\n", [systemRule()]).findings).toHaveLength(1);
  });

  describe("with a flow condition", () => {
    const request = { kind: "attribute", regex: String.raw`^request\.args$` };
    const flowRule = policy("sql-injection", [
      {
        type: "structural",
        value: JSON.stringify({
          languages: ["python"],
          rule: { pattern: "$C.execute($Q)" },
          flow: {
            sink: "Q",
            sources: [request],
            sanitizers: [{ kind: "call", has: { field: "function", regex: "^int$" } }],
          },
        }),
        rule_id: "python-sql-from-request",
      },
    ]);
    const lines = (source: string) => scanFile("app.py", source, [flowRule]).findings.map((f) => f.line);

    it("reports a source reaching the sink through assignments, concatenation and formatting", () => {
      expect(lines('def v(c):\n    c.execute("SELECT %s" % request.args["id"])\n')).toEqual([2]);
      expect(
        lines('def v(c):\n    a = request.args.get("id")\n    b = f"x{a}"\n    q = "S " + b\n    c.execute(q)\n'),
      ).toEqual([5]);
      expect(lines('def v(c):\n    q = "S "\n    if x:\n        q += request.args["id"]\n    c.execute(q)\n')).toEqual([
        5,
      ]);
    });

    it("stays quiet for constants, sanitized input, other functions' names and assignments after the sink", () => {
      expect(lines('Q = "SELECT 1"\ndef v(c):\n    c.execute(Q % ())\n')).toEqual([]);
      expect(lines('def v(c):\n    n = int(request.args["n"])\n    c.execute("S %d" % n)\n')).toEqual([]);
      expect(lines('def a():\n    q = request.args["x"]\ndef b(c, q):\n    c.execute(q)\n')).toEqual([]);
      expect(lines('def v(c):\n    q = "SELECT 1"\n    c.execute(q)\n    q = request.args["x"]\n')).toEqual([]);
      // A name assigned from itself is followed once, not forever.
      expect(lines('def v(c):\n    q = "S"\n    q = q + q\n    c.execute(q)\n')).toEqual([]);
    });

    it("is refused for a language without flow support, or without sources", () => {
      const bad = (spec: object) => () =>
        compileEngine([policy("p", [{ type: "structural", value: JSON.stringify(spec), rule_id: "bad-flow" }])]);
      expect(bad({ languages: ["go"], rule: { pattern: "x" }, flow: { sink: "Q", sources: [request] } })).toThrow(
        "bad-flow",
      );
      expect(bad({ languages: ["python"], rule: { pattern: "x" }, flow: { sink: "Q", sources: [] } })).toThrow(
        "bad-flow",
      );
    });
  });

  it("refuses a rule that is not JSON of languages and an ast-grep rule when the engine is compiled", () => {
    const bad = (value: string) => () =>
      compileEngine([policy("p", [{ type: "structural", value, rule_id: "bad-rule" }])]);
    expect(bad("os.system(")).toThrow("bad-rule");
    expect(bad(JSON.stringify({ languages: ["cobol"], rule: { pattern: "x" } }))).toThrow("bad-rule");
    expect(bad(JSON.stringify({ languages: ["python"], rule: { kind: "no_such_kind" } }))).toThrow("bad-rule");
  });
});

describe("provider context", () => {
  const hex = "9f8e7d6c5b4a39281706f5e4d3c2b1a0";
  const rule = (context: Partial<NonNullable<PatternToRun["context"]>> = {}) =>
    policy("acme", [
      {
        value: String.raw`\b([a-f0-9]{32})(?:[^A-Za-z0-9_-]|$)`,
        redact: true,
        redact_group: 1,
        keywords: ["acme"],
        context: { keywords: ["acme"], distance: 0, separators: "", lines: 0, ...context },
      },
    ]);
  const lines = (content: string, context?: Partial<NonNullable<PatternToRun["context"]>>) =>
    scanFile("a.txt", content, [rule(context)]).findings.map((f) => f.line);

  it("reports a value of the shape wherever the provider names it, whatever the syntax", () => {
    const named = [
      `ACME_READ_KEY=${hex}`,
      `acme token = '${hex}'`,
      `acme token - '${hex}'`,
      `{"acme": {"token": "${hex}"}}`,
      `<add key="Acme:ApiKey" value="${hex}" />`,
      `<acmeToken>${hex}</acmeToken>`,
      `acme-cli login --token ${hex}`,
      `GET https://api.acme.io/v2/projects?access_token=${hex}`,
      `X-Acme-Key: ${hex}`,
      `[DEBUG] acme: using key=${hex}`,
      `client := acme.New("${hex}")`,
      `myAcmeKey = "${hex}"`,
    ];
    expect(lines(named.join("\n"))).toEqual(named.map((_, i) => i + 1));
  });

  it("stays quiet where the provider is not named just before the value", () => {
    const quiet = [
      `checksum = "${hex}" # acme`,
      `probably = 1; digest = "${hex}"`,
      `acme_id = 1; digest = "${hex}"`,
      `unacme_token = "${hex}"`,
      `acme ${"x".repeat(60)} ${hex}`,
      `acme\ntoken: ${hex}`,
    ];
    expect(quiet.filter((content) => lines(content).length > 0)).toEqual([]);
  });

  it("takes the keyword only as a whole word part of a name, not the start of a longer word", () => {
    const longer = [`acmeology_key = "${hex}"`, `ACMEOLOGY_KEY=${hex}`, `TemplateAcmeish: "${hex}"`];
    expect(longer.filter((content) => lines(content).length > 0)).toEqual([]);
    const parts = [`acmeKey = "${hex}"`, `ACME_KEY=${hex}`, `TemplateAcme: "${hex}"`, `AcmeKey: ${hex}`];
    expect(parts.map((content) => lines(content).length)).toEqual([1, 1, 1, 1]);
    // A keyword that ends in a separator ends a word part itself.
    expect(lines(`acme_key=${hex}`, { keywords: ["acme_"] })).toEqual([1]);
  });

  it("takes the distance, the separators and the line breaks as data", () => {
    expect(lines(`acme ${"x".repeat(60)} = ${hex}`, { distance: 80 })).toEqual([1]);
    expect(lines(`acme%token%${hex}`)).toEqual([]);
    expect(lines(`acme%token%${hex}`, { separators: "%" })).toEqual([1]);
    expect(lines(`acme:\n  token: ${hex}`, { lines: 1 })).toEqual([2]);
    expect(lines(`acme:\n\n  token: ${hex}`, { lines: 1 })).toEqual([]);
  });
});

describe("format_verified", () => {
  // A JSON Web Token whose header names its algorithm: the jwt-header check verifies it offline.
  const jwt =
    "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U";
  const findings = (checks: string[]) =>
    scanFile("a.txt", `token = "${jwt}"`, [
      policy("p", [{ value: String.raw`(eyJ[\w-]+\.[\w-]+\.[\w-]+)`, redact: true, redact_group: 1, checks }]),
    ]).findings;

  it("is set on a finding whose rule verified the secret's format, and absent otherwise", () => {
    expect(findings(["jwt-header"])).toEqual([expect.objectContaining({ format_verified: true })]);
    expect(findings([])).toHaveLength(1);
    expect(findings([])[0]).not.toHaveProperty("format_verified");
    // A check that only rules out noise verifies nothing.
    expect(findings(["not-encoded-text"])[0]).not.toHaveProperty("format_verified");
    // A look-alike that fails its check is no finding.
    expect(
      scanFile("a.txt", `token = "eyJhbGciOieee.eyJzdWIiOiIxMjM0In0.abc"`, [
        policy("p", [
          { value: String.raw`(eyJ[\w-]+\.[\w-]+\.[\w-]+)`, redact: true, redact_group: 1, checks: ["jwt-header"] },
        ]),
      ]).findings,
    ).toEqual([]);
  });
});
