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
import { BUILTIN_POLICIES, LANGUAGES, resolveBuiltins, type Language } from "@verdict/policy";
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

  it("finds the same, to every field, reading keyword-gated rules only around their keywords as searching whole files", () => {
    const whole = compileEngine(policies, { wholeFiles: true });
    const options = { allowSuppression: true };
    const differ = files
      .filter(
        (f) =>
          JSON.stringify(engine.scan(f.path, f.content, options)) !==
          JSON.stringify(whole.scan(f.path, f.content, options)),
      )
      .map((f) => f.path);
    expect(differ).toEqual([]);
    // Not two empty scans: the fixtures' provider tokens are found.
    const providers = files.filter((f) => f.path.startsWith("provider-tokens/"));
    expect(providers.reduce((n, f) => n + engine.scan(f.path, f.content, options).findings.length, 0)).toBeGreaterThan(
      400,
    );
  });

  it("finds the same, to every field, with its rules compiled on first use, and for the few files it scans (the CLI's offline engines)", () => {
    const options = { allowSuppression: true };
    const lazy = compileEngine(policies, { lazyRules: true });
    const differ: string[] = [];
    // Gated: an engine for each 16 files, as `evaluate --offline` compiles one for a commit's
    // files, without the regex rules that cannot match in them.
    for (let i = 0; i < files.length; i += 16) {
      const texts = files.slice(i, i + 16);
      const gated = compileEngine(policies, { lazyRules: true, texts });
      for (const file of texts) {
        const eager = JSON.stringify(engine.scan(file.path, file.content, options));
        if (JSON.stringify(lazy.scan(file.path, file.content, options)) !== eager) differ.push(`lazy ${file.path}`);
        if (JSON.stringify(gated.scan(file.path, file.content, options)) !== eager) differ.push(`gated ${file.path}`);
      }
    }
    expect(differ).toEqual([]);
    expect(files.length).toBeGreaterThan(100);
  });
});

// A policy's claims (the CWEs it checks, from which compliance coverage is computed, and the
// languages it runs on) are backed by rules with true-positive samples, which the test above
// proves are found; and every CWE reference in its frameworks is one of those claims.
describe("built-in policies' claims", () => {
  const truePositives = (ruleIds: readonly string[]) =>
    all.filter((a) => a.kind === "ruleid" && ruleIds.includes(a.ruleId));

  it("name only CWEs that rules with true-positive samples check, exactly as the framework references", () => {
    const problems = BUILTIN_POLICIES.flatMap((p) => {
      const ruleIds = p.patterns.map((r) => r.id);
      const referenced = new Set(p.frameworks.flatMap((f) => /^cwe(?:-top-25)?:(CWE-\d+)$/.exec(f)?.[1] ?? []));
      const claimed = Object.keys(p.claims.cwe);
      return [
        ...[...referenced].filter((c) => !claimed.includes(c)).map((c) => `${p.id}: ${c} referenced, not claimed`),
        ...claimed.filter((c) => !referenced.has(c)).map((c) => `${p.id}: ${c} claimed, not referenced`),
        ...Object.entries(p.claims.cwe).flatMap(([cwe, backers]) => [
          ...backers.filter((id) => id !== "*" && !ruleIds.includes(id)).map((id) => `${p.id}: ${cwe}: no rule ${id}`),
          ...(truePositives(backers.includes("*") ? ruleIds : backers).length
            ? []
            : [`${p.id}: ${cwe}: no rule with a true-positive sample checks it`]),
        ]),
      ];
    });
    expect(problems).toEqual([]);
  });

  it("name the languages their rules' true-positive samples are written in, no more and no fewer", () => {
    const problems = BUILTIN_POLICIES.flatMap((p) => {
      const ruleIds = p.patterns.map((r) => r.id);
      const files = [...new Set(truePositives(ruleIds).map((a) => a.file))];
      const backs = (language: Language) => files.some((f) => LANGUAGES[language].test(f));
      if (p.category === "secrets")
        return p.claims.languages.length ? [`${p.id}: a secret policy reads any file, it claims no language`] : [];
      return [
        ...(p.claims.languages.length ? [] : [`${p.id}: claims no language`]),
        ...p.claims.languages.filter((l) => !backs(l)).map((l) => `${p.id}: ${l} claimed, no true-positive sample`),
        ...files
          .filter((f) => !p.claims.languages.some((l) => LANGUAGES[l].test(f)))
          .map((f) => `${p.id}: ${f} has true positives in no claimed language`),
      ];
    });
    expect(problems).toEqual([]);
  });
});
