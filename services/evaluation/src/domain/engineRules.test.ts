// The engine: what a rule's conditions, checks, provider context and suppressions let through.
import { describe, expect, it } from "@jest/globals";
import { crc32Base62 } from "@verdict/kit";
import { compileEngine, type PatternToRun } from "./engine.js";
import { awsKey, awsPolicy, evalPolicy, passwordPolicy, policy, scan, scanFile } from "../../test/engineFixtures.js";

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
