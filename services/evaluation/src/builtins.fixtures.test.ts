// The built-in policy library against its fixtures, through the real engine: every rule finds
// its true positives and stays quiet on its false positives.
//
// Fixtures live in services/policy/fixtures/<policy-id>/, real-looking files whose names and
// extensions are what the rules' path filters expect. Annotations follow Semgrep's convention:
// a comment line containing `ruleid: <rule-id>` means the next line must produce a finding of
// that rule, `ok: <rule-id>` that it must not (several ids may be separated by commas).
import { describe, expect, it } from "@jest/globals";
import { readdirSync, readFileSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { BUILTIN_POLICIES, resolveBuiltins } from "@verdict/policy";
import { compileEngine } from "./domain/engine.js";

const FIXTURES = fileURLToPath(new URL("../../policy/fixtures", import.meta.url));
// A comment opener (#, //, --, <!--, ;, /*, *, {/*, {#, <%#) then the annotation.
const ANNOTATION =
  /^\s*(?:#|\/\/|--|<!--|;|\/\*|\*|\{\/\*|\{#|<%#)\s*(ruleid|ok)\s*:\s*([a-z0-9-]+(?:\s*,\s*[a-z0-9-]+)*)/;

interface Annotation {
  file: string;
  /** 1-based line the annotation speaks about (the one after the comment). */
  line: number;
  kind: "ruleid" | "ok";
  ruleId: string;
}

function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? walk(join(dir, e.name)) : [join(dir, e.name)]))
    .sort();
}

function annotations(file: string, content: string): Annotation[] {
  const out: Annotation[] = [];
  content.split(/\r?\n/).forEach((text, i) => {
    const m = ANNOTATION.exec(text);
    if (!m) return;
    for (const ruleId of m[2]!.split(","))
      out.push({ file, line: i + 2, kind: m[1] as "ruleid" | "ok", ruleId: ruleId.trim() });
  });
  return out;
}

// The library as an organization that switched detect_api_keys on runs it.
const policies = resolveBuiltins({ "hardcoded-credentials": { detect_api_keys: true } });
const engine = compileEngine(policies);
const rules = policies.flatMap((p) => p.patterns.map((r) => ({ policy: p.id, id: r.rule_id })));
const files = walk(FIXTURES).map((abs) => {
  // Paths as an evaluation would send them: relative, `/`-separated (`<policy-id>/app.py`).
  const path = relative(FIXTURES, abs).split(sep).join("/");
  const content = readFileSync(abs);
  return { path, content, annotations: annotations(path, content.toString("utf8")) };
});
const all = files.flatMap((f) => f.annotations);

describe("built-in policy library", () => {
  it("is at least 12 policies and 80 rules, each rule with a unique id", () => {
    expect(policies.length).toBeGreaterThanOrEqual(12);
    expect(rules.length).toBeGreaterThanOrEqual(80);
    const ids = rules.map((r) => r.id);
    expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
    for (const r of rules) expect(r.id).toMatch(/^[a-z0-9]+(?:-[a-z0-9]+)*$/);
  });

  it("documents every policy: framework controls, documentation link, a suggestion", () => {
    const incomplete = BUILTIN_POLICIES.filter(
      (p) =>
        p.frameworks.length === 0 ||
        !p.frameworks.every((f) => /^[a-z0-9-]+:[A-Za-z0-9._()-]+$/.test(f)) ||
        p.documentation_url !== `https://verdict.dev/docs/policies/${p.id}` ||
        p.suggestions.length === 0 ||
        p.suggestions.some((s) => s.trim() === ""),
    ).map((p) => p.id);
    expect(incomplete).toEqual([]);
  });

  it("has a true-positive and a false-positive sample for every rule", () => {
    const known = new Set(rules.map((r) => r.id));
    const missing = rules.flatMap((r) =>
      (["ruleid", "ok"] as const)
        .filter((kind) => !all.some((a) => a.kind === kind && a.ruleId === r.id))
        .map((kind) => `${r.id}: no '${kind}:' sample`),
    );
    const unknown = all
      .filter((a) => !known.has(a.ruleId))
      .map((a) => `${a.file}:${a.line}: unknown rule '${a.ruleId}'`);
    expect([...missing, ...unknown]).toEqual([]);
  });

  it("finds every true positive and no false positive in the fixtures", () => {
    const mismatches: string[] = [];
    for (const file of files) {
      if (!file.annotations.length) continue;
      const scan = engine.scan(file.path, file.content, { allowSuppression: true });
      if (scan.skipped) {
        mismatches.push(`${file.path}: skipped (${scan.skipped})`);
        continue;
      }
      const found = new Set(scan.findings.map((f) => `${f.rule_id}@${f.line}`));
      for (const a of file.annotations) {
        const hit = found.has(`${a.ruleId}@${a.line}`);
        if (a.kind === "ruleid" && !hit)
          mismatches.push(`${a.file}:${a.line}: expected a finding of ${a.ruleId}, got none`);
        if (a.kind === "ok" && hit) mismatches.push(`${a.file}:${a.line}: unexpected finding of ${a.ruleId}`);
      }
    }
    expect(mismatches).toEqual([]);
  });
});
