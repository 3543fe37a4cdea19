// The words gate of structural rules (structuralWords.ts): what a rule's patterns require of a
// file, and, through the engine, that a file is still matched wherever ast-grep would match it.
import { describe, expect, it } from "@jest/globals";
import { compileEngine } from "./engine.js";
import { mayMatch, ruleBranches, ruleForFile, ruleWords } from "./structuralWords.js";
import { policy, scanFile } from "../../test/engineFixtures.js";

const inText = (text: string) => (word: string) => text.includes(word);

describe("ruleWords", () => {
  it("reads a pattern's words, not its metavariables", () => {
    expect(ruleWords({ pattern: "subprocess.run($CMD, $$$REST)" })).toEqual([["subprocess", "run"]]);
    expect(ruleWords({ pattern: "$C.execute($Q)" })).toEqual([["execute"]]);
    expect(ruleWords({ pattern: "$A = $B" })).toBeUndefined();
  });

  it("takes every branch of an any, and one known part of an all", () => {
    expect(ruleWords({ any: [{ pattern: "eval($X)" }, { pattern: "exec($X)" }] })).toEqual([["eval"], ["exec"]]);
    // One branch without words (a kind) can match anywhere: no gate for the whole any.
    expect(ruleWords({ any: [{ pattern: "eval($X)" }, { kind: "call" }] })).toBeUndefined();
    expect(ruleWords({ all: [{ kind: "call" }, { pattern: "open($P)" }] })).toEqual([["open"]]);
  });

  it("knows no words of a rule without a string pattern (a kind, a regex, a pattern object with its own strictness)", () => {
    expect(ruleWords({ kind: "call", regex: "^eval" })).toBeUndefined();
    expect(ruleWords({ pattern: { context: "eval($X)", strictness: "signature" } })).toBeUndefined();
    expect(ruleWords({ not: { pattern: "eval($X)" } })).toBeUndefined();
  });

  it("lets a file through when it has every word of one alternative", () => {
    const words = ruleWords({ any: [{ pattern: "pickle.loads($D)" }, { pattern: "yaml.load($D)" }] });
    expect(mayMatch(words, inText("import yaml\nyaml.load(x)"))).toBe(true);
    expect(mayMatch(words, inText("import pickle\nx.dumps(y)"))).toBe(false);
    expect(mayMatch(undefined, inText(""))).toBe(true);
  });
});

describe("ruleForFile", () => {
  it("gives a file only the branches of the any it may match, and the whole rule when all or none may", () => {
    const rule = { any: [{ pattern: "os.system($C)" }, { pattern: "os.popen($C)" }], not: { kind: "string" } };
    const branches = ruleBranches(rule)!;
    expect(ruleForFile(branches, inText("os.popen(cmd)"))).toEqual({
      any: [{ pattern: "os.popen($C)" }],
      not: { kind: "string" },
    });
    expect(ruleForFile(branches, inText("os.system(a); os.popen(b)"))).toBe(rule);
    expect(ruleForFile(branches, inText("nothing"))).toBe(rule);
    expect(ruleBranches({ pattern: "eval($X)" })).toBeUndefined();
  });
});

describe("the words gate in the engine", () => {
  const rules = policy("command-injection", [
    {
      type: "structural",
      value: JSON.stringify({
        languages: ["python"],
        rule: { any: [{ pattern: "os.system($CMD)" }, { pattern: "subprocess.run($CMD)" }] },
        constraints: { CMD: { kind: "identifier" } },
      }),
      rule_id: "python-command-variable",
    },
  ]);
  const found = (source: string) => scanFile("tools/run.py", source, [rules]).findings.map((f) => f.line);

  it("matches where ast-grep does, tokens apart or not, and skips a file without the words", () => {
    expect(found("import subprocess\nsubprocess . run(cmd)\nos.system(cmd)\n")).toEqual([2, 3]);
    expect(found("import os\nos.system(  # why\n  cmd)\n")).toEqual([2]);
    expect(found("import os\nos.getcwd(cmd)\n")).toEqual([]);
  });

  it("parses only the files that have a rule's words, and counts what they cost by language", () => {
    const engine = compileEngine([rules]);
    const scan = (path: string, source: string) => engine.scan(path, Buffer.from(source), { allowSuppression: false });
    scan("a.py", "import os\nos.getcwd(cmd)\n");
    expect(engine.structuralCost().get("python")).toBeUndefined();
    const source = "import os\nos.system(cmd)\n";
    expect(scan("b.py", source).findings).toHaveLength(1);
    scan("c.py", source);
    const cost = engine.structuralCost().get("python")!;
    expect([cost.files, cost.bytes]).toEqual([2, 2 * source.length]);
    // CPU time, counted in the kernel's ticks: none may have passed for two small files.
    expect(cost.parseSeconds).toBeGreaterThanOrEqual(0);
    expect(cost.matchSeconds).toBeGreaterThanOrEqual(0);
  });
});
