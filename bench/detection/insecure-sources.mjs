// Insecure-code test cases published by other tools, fetched from the package registries by pinned
// version and normalised into labelled cases:
//   { source, tool_rule, positive, files: [{ path, content }], expected?, note? }
// A case is positive when the other tool's own test expects it to report something.
//   gosec                  Go module: testutils/*_samples.go, []CodeSample{Code, Errors, Config}
//                          (dumped by a small Go program compiled against the module itself).
//   bandit                 PyPI sdist: examples/*.py, labelled by tests/functional/test_functional.py
//                          (the expected issue counts passed to check_example).
//   eslint-plugin-security npm tarball: test/rules/*.js RuleTester valid/invalid cases. 4.x ships
//                          one rule's tests only; 3.0.1 ships them all, so it is pinned here.
//   kics                   Go module: assets/queries/{dockerfile,k8s,cicd/github,terraform/{aws,gcp,azure}}/<query>/test/{positive,negative}*
//                          (positive files are those named in positive_expected_result.json).
import { spawnSync } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import process from "node:process";
import { cachedJson, cachePath, note, pypiSdist, run } from "./cache.mjs";
import { goModuleDir } from "./gitleaks-samples.mjs";

export const SOURCES = {
  gosec: { module: "github.com/securego/gosec/v2", version: "v2.30.0" },
  bandit: { pypi: "bandit", version: "1.9.4" },
  eslint: { npm: "eslint-plugin-security", version: "3.0.1" },
  // format: the cases taken from it changed (a new platform); the cache is rebuilt.
  kics: { module: "github.com/Checkmarx/kics/v2", version: "v2.2.0", format: 3 },
};
const FORMAT = 1;

// ---------- gosec ----------

function gosecCases() {
  const { module, version } = SOURCES.gosec;
  const dir = goModuleDir(module, version);
  const names = new Set();
  for (const file of readdirSync(join(dir, "testutils")).filter((f) => f.endsWith("_samples.go"))) {
    const text = readFileSync(join(dir, "testutils", file), "utf8");
    for (const m of text.matchAll(/^(?:var\s+)?\s*(SampleCode\w+)\s*=\s*\[\]CodeSample\b/gm)) names.add(m[1]);
  }
  const ruleNames = [...names].filter((n) => /^SampleCodeG\d{3}/.test(n)).sort();
  const work = mkdtempSync(join(tmpdir(), "verdict-gosec-"));
  try {
    const src = join(work, "src");
    run("cp", ["-r", dir, src]);
    run("chmod", ["-R", "u+w", src]);
    mkdirSync(join(src, "cmd", "verdictdump"), { recursive: true });
    writeFileSync(
      join(src, "cmd", "verdictdump", "main.go"),
      `// Written by Verdict's detection benchmark: prints gosec's test samples as JSON.
package main

import (
	"encoding/json"
	"os"

	"github.com/securego/gosec/v2/testutils"
)

type sample struct {
	Name   string   \`json:"name"\`
	Code   []string \`json:"code"\`
	Errors int      \`json:"errors"\`
}

func main() {
	var out []sample
	add := func(name string, samples []testutils.CodeSample) {
		for _, s := range samples {
			out = append(out, sample{Name: name, Code: s.Code, Errors: s.Errors})
		}
	}
${ruleNames.map((n) => `\tadd(${JSON.stringify(n)}, testutils.${n})`).join("\n")}
	if err := json.NewEncoder(os.Stdout).Encode(out); err != nil {
		panic(err)
	}
}
`,
    );
    const samples = JSON.parse(
      run("go", ["run", "./cmd/verdictdump"], { cwd: src, env: { ...process.env, GOFLAGS: "-mod=mod" } }),
    );
    return samples.map((s, i) => ({
      source: "gosec",
      tool_rule: /^SampleCode(G\d{3})/.exec(s.name)[1],
      id: `gosec/${s.name}/${i}`,
      positive: s.errors > 0,
      expected: s.errors,
      files: s.code.map((content, j) => ({ path: s.code.length === 1 ? "main.go" : `file${j}.go`, content })),
    }));
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

// ---------- bandit ----------

const BANDIT_LABELS_PY = String.raw`
import ast, json, sys
tree = ast.parse(open(sys.argv[1]).read())
nodes = sorted((n for n in ast.walk(tree) if hasattr(n, "lineno")), key=lambda n: (n.lineno, n.col_offset))
expect, out = None, []
for n in nodes:
    if isinstance(n, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "expect" for t in n.targets):
        try:
            expect = ast.literal_eval(n.value)
        except ValueError:
            expect = None
    elif isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr == "check_example":
        if expect is not None and n.args and isinstance(n.args[0], ast.Constant):
            issues = sum(v for k, v in expect["SEVERITY"].items() if k != "UNDEFINED")
            out.append({"example": n.args[0].value, "issues": issues})
print(json.dumps(out))
`;

function banditCases() {
  const { pypi, version } = SOURCES.bandit;
  const work = mkdtempSync(join(tmpdir(), "verdict-bandit-"));
  try {
    const root = pypiSdist(pypi, version, work);
    const labels = JSON.parse(
      run("python3", ["-c", BANDIT_LABELS_PY, join(root, "tests/functional/test_functional.py")]),
    );
    const seen = new Set();
    const cases = [];
    for (const { example, issues } of labels) {
      const file = join(root, "examples", example);
      // The same example checked twice (e.g. with and without nosec) is one case: the first label.
      if (seen.has(example) || !existsSync(file) || !statSync(file).isFile()) continue;
      seen.add(example);
      cases.push({
        source: "bandit",
        tool_rule: example,
        id: `bandit/${example}`,
        positive: issues > 0,
        expected: issues,
        files: [{ path: example, content: readFileSync(file, "utf8") }],
      });
    }
    return cases;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

// ---------- eslint-plugin-security ----------

// Loads each RuleTester test file with `eslint` replaced by a recorder of the cases it is given
// (only the cases are wanted; the rule modules are not loaded).
const ESLINT_DUMP_JS = String.raw`
const Module = require("module");
const path = require("path");
const out = [];
let current = "";
class RuleTester {
  run(name, _rule, { valid = [], invalid = [] }) {
    const norm = (c) => (typeof c === "string" ? { code: c } : c);
    for (const c of valid) out.push({ file: current, rule: name, positive: false, code: norm(c).code, module: /module/.test(JSON.stringify(norm(c).parserOptions || norm(c).languageOptions || "")) });
    for (const c of invalid) out.push({ file: current, rule: name, positive: true, code: norm(c).code, module: /module/.test(JSON.stringify(norm(c).parserOptions || norm(c).languageOptions || "")), errors: (norm(c).errors || []).map((e) => (typeof e === "string" ? e : e.message || "")) });
  }
}
const load = Module._load;
Module._load = function (request, parent, isMain) {
  if (request === "eslint") return { RuleTester };
  // The rules themselves are loaded when their dependencies are there (some tests read rule.meta).
  if (request.startsWith("../../rules/")) {
    try { return load.apply(this, arguments); } catch { return {}; }
  }
  return load.apply(this, arguments);
};
const failed = [];
for (const file of process.argv.slice(2)) {
  current = path.basename(file);
  const before = out.length;
  try { require(file); } catch (e) { out.length = before; failed.push(current + ": " + e.message.split("\n")[0]); }
}
process.stdout.write(JSON.stringify({ cases: out, failed }));
`;

function eslintCases() {
  const { npm, version } = SOURCES.eslint;
  const work = mkdtempSync(join(tmpdir(), "verdict-eslint-"));
  try {
    const tarball = run("npm", ["pack", `${npm}@${version}`, "--silent"], { cwd: work })
      .trim()
      .split("\n")
      .pop();
    run("tar", ["xzf", join(work, tarball), "-C", work]);
    const tests = join(work, "package", "test", "rules");
    const files = readdirSync(tests)
      .filter((f) => f.endsWith(".js"))
      .sort()
      .map((f) => join(tests, f));
    const script = join(work, "dump.cjs");
    writeFileSync(script, ESLINT_DUMP_JS);
    const { cases, failed } = JSON.parse(run(process.execPath, [script, ...files]));
    for (const f of failed) note(`eslint-plugin-security: test file not read: ${f}`);
    return cases.map((c, i) => ({
      source: "eslint-plugin-security",
      tool_rule: c.rule,
      id: `eslint-plugin-security/${c.rule}/${i}`,
      positive: c.positive,
      ...(c.errors ? { errors: c.errors } : {}),
      files: [{ path: c.module ? "case.mjs" : "case.js", content: c.code }],
    }));
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

// ---------- KICS ----------

function kicsCases() {
  const { module, version } = SOURCES.kics;
  const queries = join(goModuleDir(module, version), "assets", "queries");
  const cases = [];
  for (const platform of ["dockerfile", "k8s", "cicd/github", "terraform/aws", "terraform/gcp", "terraform/azure"]) {
    for (const query of readdirSync(join(queries, platform)).sort()) {
      const test = join(queries, platform, query, "test");
      if (!existsSync(test)) continue;
      const expectedFile = join(test, "positive_expected_result.json");
      const expected = existsSync(expectedFile) ? JSON.parse(readFileSync(expectedFile, "utf8")) : [];
      const flaggedFiles = new Map();
      for (const e of expected)
        if (e.fileName) flaggedFiles.set(basename(e.fileName), (flaggedFiles.get(basename(e.fileName)) ?? 0) + 1);
      for (const name of readdirSync(test).sort()) {
        const full = join(test, name);
        if (!statSync(full).isFile() || name.endsWith(".json")) continue;
        const positive = /^positive/.test(name);
        if (!positive && !/^negative/.test(name)) continue;
        // A positive file KICS does not expect a result in is not a labelled positive.
        if (positive && flaggedFiles.size && !flaggedFiles.has(name)) continue;
        // KICS reads a Dockerfile or a workflow test under any name; Verdict's rules look at the
        // name (a Dockerfile, a workflow in .github/workflows/).
        const path =
          platform === "dockerfile" && !/dockerfile/i.test(name)
            ? `${name}.dockerfile`
            : platform === "cicd/github"
              ? `.github/workflows/${name}`
              : name;
        cases.push({
          source: "kics",
          tool_rule: `${platform}/${query}`,
          id: `kics/${platform}/${query}/${name}`,
          positive,
          ...(positive ? { expected: flaggedFiles.get(name) ?? 1 } : {}),
          files: [{ path, content: readFileSync(full, "utf8") }],
        });
      }
    }
  }
  return cases;
}

// ---------- all ----------

const EXTRACTORS = { gosec: gosecCases, bandit: banditCases, eslint: eslintCases, kics: kicsCases };

/** Every labelled case of every source, from the cache or fetched and extracted now. */
export function insecureCases() {
  const all = [];
  for (const [name, extract] of Object.entries(EXTRACTORS)) {
    const pin = SOURCES[name];
    const doc = cachedJson(
      cachePath("insecure", `${name}.json`),
      (d) => d.format === (pin.format ?? FORMAT) && d.version === pin.version,
      () => {
        note(`insecure: fetching ${name} ${pin.version}`);
        return { format: FORMAT, ...pin, cases: extract() };
      },
    );
    all.push(...doc.cases);
  }
  return all;
}

/** Whether a registry tool is on PATH (used to explain what is skipped). */
export function hasCommand(command) {
  const r = spawnSync(command, ["--version"], { encoding: "utf8" });
  return !r.error && r.status === 0;
}
