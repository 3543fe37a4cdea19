// The engine: syntax-aware (structural) rules beside RE2 ones.
import { describe, expect, it } from "@jest/globals";
import { compileEngine } from "./engine.js";
import { fingerprintOf } from "./fingerprint.js";
import { policy, scanFile } from "../../test/engineFixtures.js";

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

  it("reports matches after and around emoji, CJK and combining marks at their exact lines, columns and spans", () => {
    // Astral emoji are two UTF-16 units, CJK one, a combining mark its own code point: ast-grep's
    // UTF-16 offsets become byte offsets, then code-point columns; the match's span is its fingerprint.
    const source = [
      "import os",
      "# 注释 😀 os.system(cmd) in a comment",
      'name = "e\u0301te\u0301 😀😀"; os.system(名前)',
      'x = "中文"; os.system("rm " + 路径 + "😀🎉"); os.system(x)',
      '🎉 = 1; os.system("🎉" + a)',
      "",
    ].join("\n");
    const findings = scanFile("tools/run.py", source, [systemRule()]).findings;
    expect(findings.map((f) => [f.line, f.column])).toEqual([
      [3, 20],
      [4, 11],
      [4, 41],
      [5, 8],
    ]);
    const spans = ["os.system(名前)", 'os.system("rm " + 路径 + "😀🎉")', "os.system(x)", 'os.system("🎉" + a)'];
    const id = { policy_id: "command-injection", rule_id: "python-os-system-variable", file: "tools/run.py" };
    expect(findings.map((f) => f.fingerprint)).toEqual(spans.map((span) => fingerprintOf(id, span)));
    expect(findings[2]!.code_snippet).toBe('x = "中文"; os.system("rm " + 路径 + "😀🎉"); os.system(x)');
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

  it("compiled on first use, compiles a language's rules when a file of that language first gets past their gates", () => {
    const lazy = (value: string) =>
      compileEngine([policy("p", [{ type: "structural", value, rule_id: "bad-rule" }]), systemRule()], {
        lazyRules: true,
      });
    // A value that is not a rule still fails at once.
    expect(() => lazy("os.system(")).toThrow("bad-rule");
    // One ast-grep rejects fails the scans of its language that would run it, every time, with the eager error.
    const engine = lazy(JSON.stringify({ languages: ["python", "go"], rule: { kind: "no_such_kind" } }));
    expect(engine.scan("tools/run.ts", Buffer.from("os.system(cmd)\n"), { allowSuppression: true }).findings).toEqual(
      [],
    );
    const python = Buffer.from("import os\nos.system(cmd)\n");
    for (let i = 0; i < 2; i++)
      expect(() => engine.scan("tools/run.py", python, { allowSuppression: true })).toThrow(
        "structural rule bad-rule (python)",
      );
    // The valid rules of a language run as the eager engine's do.
    const good = lazy(JSON.stringify({ languages: ["go"], rule: { pattern: "exec.Command($X)" } }));
    expect(good.scan("tools/run.py", python, { allowSuppression: true }).findings.map((f) => f.rule_id)).toEqual([
      "python-os-system-variable",
    ]);
  });
});
