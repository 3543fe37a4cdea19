// The OWASP Benchmark scorecard's pure parts: reading the expected-results file, the score per
// category (TPR - FPR), the CWEs of a Semgrep finding, and which CWEs Verdict's policies claim.
// Run with `node --test bench/detection/*.test.mjs` (after `pnpm run build`).
import assert from "node:assert/strict";
import { test } from "node:test";
import { BUILTIN_POLICIES } from "../common.mjs";
import { claimsByCwe, cwesOf, matchingPathspecs, owaspScore, parseExpected } from "./owasp.mjs";

test("parseExpected reads the expected-results CSV and rejects a malformed line", () => {
  const tests = parseExpected(
    "# test name, category, real vulnerability, cwe, Benchmark version: 1.2, 2016-06-1\nBenchmarkTest00001,pathtraver,true,22\r\nBenchmarkTest00002,sqli,false,89\n",
  );
  assert.deepEqual(tests, [
    { name: "BenchmarkTest00001", category: "pathtraver", real: true, cwe: 22 },
    { name: "BenchmarkTest00002", category: "sqli", real: false, cwe: 89 },
  ]);
  assert.throws(() => parseExpected("BenchmarkTest00003,sqli,maybe,89"), /cannot read/);
});

test("owaspScore: TPR - FPR per category", () => {
  const t = (name, category, real) => ({ name, category, real, cwe: category === "sqli" ? 89 : 78 });
  const tests = [
    t("a", "sqli", true),
    t("b", "sqli", true),
    t("c", "sqli", false),
    t("d", "sqli", false),
    t("e", "cmdi", true),
  ];
  const flagged = new Set(["a", "c"]);
  const score = owaspScore(tests, (x) => flagged.has(x.name));
  assert.deepEqual(
    { ...score.get("sqli") },
    { cwe: 89, positives: 2, negatives: 2, tp: 1, fp: 1, tpr: 0.5, fpr: 0.5, score: 0 },
  );
  assert.equal(score.get("cmdi").score, 0);
  assert.equal(owaspScore(tests, () => true).get("sqli").score, 0);
  assert.equal(owaspScore(tests, (x) => x.real).get("sqli").score, 1);
});

test("cwesOf reads a rule's cwe metadata, one string or a list", () => {
  assert.deepEqual(cwesOf({ cwe: "CWE-89: Improper Neutralization of Special Elements" }), [89]);
  assert.deepEqual(cwesOf({ cwe: ["CWE-78: OS Command Injection", "CWE-88"] }), [78, 88]);
  assert.deepEqual(cwesOf({}), []);
  assert.deepEqual(cwesOf(undefined), []);
});

test("claimsByCwe maps the CWEs the built-in policies claim to those policies", () => {
  const claims = claimsByCwe(BUILTIN_POLICIES);
  assert.deepEqual(claims.get(89), ["sql-injection"]);
  // CI workflows' script injection is OS command injection too (run: steps are shell scripts).
  assert.deepEqual(claims.get(78), ["ci-workflow-security", "command-injection"]);
  assert.ok(claims.get(79).includes("xss-sinks"));
  assert.deepEqual(claims.get(22), ["path-traversal"]);
  assert.equal(claims.has(476), false, "no policy claims NULL pointer dereference");
});

test("matchingPathspecs keeps the patterns that name a file (git archive refuses one that names none)", () => {
  const files = ["python/flask/a.yaml", "python/b.yaml", "java/c.yml", "expectedresults-0.1.csv", "testcode/T1.py"];
  assert.deepEqual(matchingPathspecs(["python/*.yaml", "python/*.yml"], files), ["python/*.yaml"]);
  assert.deepEqual(matchingPathspecs(["java/*.yaml", "java/*.yml"], files), ["java/*.yml"]);
  assert.deepEqual(matchingPathspecs(["expectedresults-0.1.csv", "testcode", "test"], files), [
    "expectedresults-0.1.csv",
    "testcode",
  ]);
  assert.deepEqual(matchingPathspecs(["python.yaml"], ["pythonXyaml"]), []);
});
