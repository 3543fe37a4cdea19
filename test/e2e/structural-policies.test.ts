// Organizations' own syntax-aware (structural) policies over real HTTP: docs/policies.md's curl
// example as written, evaluations that run the rule, the pattern tester, and what an attacker
// may send (unknown keys, code-rewriting keys, deep nesting, huge rules, regex bombs, another
// organization's policy).
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { Api, expectFieldError } from "../support/api.js";
import { isolatedHome, runCli } from "../support/cli.js";
import { sarifErrors } from "../support/sarif.js";
import { startVerdict, type Verdict } from "../support/server.js";
import { bash, shellBlocks } from "../support/shell.js";

let v: Verdict;
let api: Api;

beforeAll(async () => {
  v = await startVerdict();
  api = new Api(v.url, v.bootstrapKey);
});
afterAll(async () => v.destroy());

const pattern = (rule: unknown, more: Record<string, unknown> = {}) => ({
  type: "structural",
  language: "python",
  rule,
  message: "m",
  ...more,
});
const policy = (id: string, ...patterns: unknown[]) => ({ id, name: id, severity: "error", patterns });

describe("structural custom policies", () => {
  it("docs/policies.md's example creates a policy that evaluations run, with line and column", async () => {
    const [block] = shellBlocks("docs/policies.md", "## Syntax-aware custom policies");
    const out = bash(block!.replaceAll("http://localhost:8080", v.url.replace(/\/v1$/, "")), process.cwd(), {
      PATH: process.env.PATH ?? "",
      VERDICT_API_KEY: v.bootstrapKey,
    });
    const created = JSON.parse(out);
    expect(created).toMatchObject({ id: "no-os-system", builtin: false, enabled: true });
    expect(created.patterns).toEqual([
      {
        type: "structural",
        value: JSON.stringify({
          languages: ["python"],
          rule: { pattern: "os.system($CMD)" },
          constraints: { CMD: { not: { kind: "string" } } },
        }),
        message: "os.system runs a command built at run time; use subprocess with a list",
      },
    ]);
    const e = await api.post("/v1/evaluations", {
      repository: "acme/tools",
      ref: "main",
      files: [
        {
          path: "tools/run.py",
          content: [
            "import os",
            "# os.system(cmd) in a comment is no call",
            'os.system("ls")',
            "def run(path):",
            '    os.system("ls " + path)',
            "    os.system(path)  # verdict-ignore no-os-system: reviewed, path is a constant",
            "",
          ].join("\n"),
        },
        // Another language's file is not parsed as Python.
        { path: "tools/run.js", content: 'os.system("ls " + path);\n' },
      ],
      policies: ["no-os-system"],
    });
    expect(e.status).toBe(201);
    expect(e.body.violations).toEqual([
      expect.objectContaining({
        policy_id: "no-os-system",
        file: "tools/run.py",
        line: 5,
        column: 5,
        severity: "error",
        message: "os.system runs a command built at run time; use subprocess with a list",
      }),
    ]);
    expect(e.body.suppressions).toEqual([
      expect.objectContaining({ policy_id: "no-os-system", file: "tools/run.py", line: 6 }),
    ]);
    expect(e.body.passed).toBe(false);
  });

  it("runs in the CLI's offline mode and SARIF as the server runs it", async () => {
    const home = isolatedHome();
    const repo = mkdtempSync(join(tmpdir(), "verdict-structural-"));
    try {
      writeFileSync(join(repo, "run.py"), 'import os\n\n\ndef run(path):\n    os.system("ls " + path)\n');
      const env = {
        ...home,
        XDG_CACHE_HOME: join(home.HOME, ".cache"),
        VERDICT_URL: v.url,
        VERDICT_API_KEY: v.bootstrapKey,
      };
      expect((await runCli(["policies", "pull"], { cwd: repo, env })).code).toBe(0);
      const offline = await runCli(
        ["evaluate", "--offline", "--policy", "no-os-system", "run.py", "--format", "sarif"],
        {
          cwd: repo,
          env,
        },
      );
      expect(offline.code).toBe(1);
      const sarif = JSON.parse(offline.stdout);
      expect(sarifErrors(sarif)).toBeNull();
      expect(sarif.runs[0].results).toEqual([
        expect.objectContaining({
          ruleId: "no-os-system",
          locations: [
            expect.objectContaining({
              physicalLocation: expect.objectContaining({
                artifactLocation: expect.objectContaining({ uri: "run.py" }),
                region: expect.objectContaining({ startLine: 5, startColumn: 5 }),
              }),
            }),
          ],
        }),
      ]);
    } finally {
      rmSync(repo, { recursive: true, force: true });
      rmSync(home.HOME, { recursive: true, force: true });
    }
  });

  it("refuses what ast-grep refuses, keys it does not take, and rules that match everything (422)", async () => {
    const refused = async (rule: unknown, field: string, code = "INVALID_FORMAT", more = {}) => {
      const res = await api.post("/v1/policies", policy("refused", pattern(rule, more)));
      expectFieldError(res, 422, field, code);
      return res.body.details.errors as { message: string }[];
    };
    expect((await refused({ kind: "no_such_kind" }, "patterns[0].rule"))[0]!.message).toMatch(
      /ast-grep refuses the rule: .*no_such_kind/s,
    );
    // Code-rewriting and rule-calling keys are not taken, wherever they sit.
    await refused({ pattern: "os.system($X)", fix: "os.remove('/')" }, "patterns[0].rule.fix");
    await refused({ kind: "call", has: { kind: "string", transform: { X: {} } } }, "patterns[0].rule.has.transform");
    await refused({ kind: "call", any: [{ kind: "string" }, { matches: "util" }] }, "patterns[0].rule.any[1].matches");
    await refused({ kind: "call", rewriters: [] }, "patterns[0].rule.rewriters");
    expect((await refused({ pattern: "$X" }, "patterns[0].rule"))[0]!.message).toMatch(/single out/);
    await refused({ not: { kind: "call" } }, "patterns[0].rule");
    await refused({ kind: "module" }, "patterns[0].rule");
    // A regex bomb inside the rule: ast-grep's regex engine is linear-time and refuses a program
    // over its size limit; an unclosed group is its syntax error.
    expect(
      (await refused({ kind: "call", regex: String.raw`\w{1000}{1000}` }, "patterns[0].rule"))[0]!.message,
    ).toMatch(/size limit/);
    await refused({ kind: "call", regex: "(" }, "patterns[0].rule");
    // Quadratic: for every identifier, up to the module and back down all of it (minutes on 64
    // KiB of code). Refused on a small probe, naming the limit, in well under the check's deadline.
    const started = Date.now();
    const quadratic = {
      kind: "identifier",
      inside: { stopBy: "end", kind: "module", has: { stopBy: "end", kind: "identifier", regex: "^zz$" } },
    };
    expect((await refused(quadratic, "patterns[0].rule"))[0]!.message).toMatch(
      /^Rule is too costly: .* ms per MiB of code \(limit 500 ms\)/,
    );
    expect(Date.now() - started).toBeLessThan(2000);
    await refused({ pattern: "os.system($X)" }, "patterns[0].ruleid[0]", "INVALID_FORMAT", { ruleid: ["print(1)"] });
    await refused({ pattern: "os.system($X)" }, "patterns[0].ok[1]", "INVALID_FORMAT", {
      ok: ["print(1)", "os.system('ls')"],
    });
    // Nothing was stored.
    expect((await api.get("/v1/policies/refused")).status).toBe(404);
  });

  it("answers 400 or 422 with the field for a missing rule or language, an unknown language, deep or huge rules", async () => {
    // What the type needs is a rule between fields the schema takes with either type: 422.
    expectFieldError(
      await api.post("/v1/policies", policy("bad", { type: "structural", message: "m" })),
      422,
      "patterns[0].language",
      "REQUIRED",
    );
    expectFieldError(
      await api.post("/v1/policies", policy("bad", { type: "regex", message: "m" })),
      422,
      "patterns[0].value",
      "REQUIRED",
    );
    expectFieldError(
      await api.post("/v1/policies", policy("bad", pattern({ kind: "call" }, { language: "cobol" }))),
      400,
      "patterns[0].language",
      "INVALID_ENUM",
    );
    expectFieldError(
      await api.post(
        "/v1/policies",
        policy("bad", { type: "regex", value: "x+", message: "m", rule: { kind: "call" } }),
      ),
      422,
      "patterns[0].rule",
      "INVALID_FORMAT",
    );
    // Nested far deeper than any stack (sent as text: the client's own JSON.stringify would overflow).
    const levels = 20_000;
    const deep = `${'{"kind":"call","has":'.repeat(levels)}{"kind":"call"}${"}".repeat(levels)}`;
    const nested = await api.post("/v1/policies", undefined, {
      rawBody: JSON.stringify(policy("bad", pattern("RULE"))).replace('"RULE"', deep),
    });
    expect(nested.status).toBe(400);
    expect(nested.body.details.errors[0]).toMatchObject({ code: "MAX_SIZE_EXCEEDED" });
    const huge = await api.post(
      "/v1/policies",
      policy("bad", pattern({ any: Array.from({ length: 20 }, () => ({ regex: "x".repeat(2000), kind: "call" })) })),
    );
    expectFieldError(huge, 422, "patterns[0].rule", "MAX_SIZE_EXCEEDED");
  });

  it("never answers 500 to odd JSON in a rule", async () => {
    const odd: unknown[] = [
      null,
      [],
      "kind",
      42,
      { kind: 1 },
      { pattern: { context: 5 } },
      { pattern: { selector: "call" } },
      { any: "call" },
      { any: [] },
      { nthChild: -1 },
      { nthChild: { position: "drop table" } },
      { range: { start: { line: -1, column: 0 }, end: {} } },
      { kind: "call", has: { stopBy: { fix: "x" } } },
      { kind: "call", inside: { kind: "function_definition", stopBy: "forever" } },
    ];
    for (const rule of odd) {
      const res = await api.post("/v1/policies", policy("odd", pattern(rule)));
      expect([400, 422]).toContain(res.status);
      expect(res.body.details.errors.length).toBeGreaterThan(0);
    }
  });

  it("keeps an organization's structural policy to itself", async () => {
    const orgB = await api.post("/v1/organizations", { name: "Structural B", plan: "team" });
    expect(orgB.status).toBe(201);
    const b = api.withKey(orgB.body.api_key.key);
    expect((await b.get("/v1/policies/no-os-system")).status).toBe(404);
    const e = await b.post("/v1/evaluations", {
      repository: "b/tools",
      ref: "main",
      files: [{ path: "run.py", content: "import os\ndef f(p):\n    os.system(p)\n" }],
    });
    expect(e.status).toBe(201);
    expect(e.body.violations.filter((x: { policy_id: string }) => x.policy_id === "no-os-system")).toEqual([]);
    // Its own policy of the same id is its own.
    const own = await b.post("/v1/policies", policy("no-os-system", pattern({ pattern: "os.popen($X)" })));
    expect(own.status).toBe(201);
  });
});

describe("the pattern tester with structural patterns", () => {
  it("checks a structural pattern as creating a policy does and answers its matches with line and column", async () => {
    const res = await api.post("/v1/policies/pattern-tests", {
      patterns: [
        { type: "regex", value: "TODO" },
        { type: "structural", language: "python", rule: { pattern: "eval($X)" } },
      ],
      text: "x = 1  # TODO\ny = eval(input())\n",
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      matches: [
        { pattern: 0, line: 1, column: 10, end_line: 1, end_column: 14, text: "TODO" },
        { pattern: 1, line: 2, column: 5, end_line: 2, end_column: 18, text: "eval(input())" },
      ],
      truncated: false,
    });
    expectFieldError(
      await api.post("/v1/policies/pattern-tests", {
        patterns: [{ type: "structural", language: "python", rule: { kind: "call", fix: "x" } }],
        text: "",
      }),
      422,
      "patterns[0].rule.fix",
      "INVALID_FORMAT",
    );
    expectFieldError(
      await api.post("/v1/policies/pattern-tests", {
        patterns: [{ type: "structural", rule: { kind: "call" } }],
        text: "",
      }),
      422,
      "patterns[0].language",
      "REQUIRED",
    );
  });
});
