import { describe, expect, it } from "@jest/globals";
import RE2 from "re2";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { BUILTIN_POLICIES, findBuiltin } from "./builtins/index.js";
import { CREDENTIAL_FILE_RULES } from "./builtins/providers/files.js";
import { PROVIDER_FAMILIES } from "./builtins/providerTokens.js";
import { providerRule } from "./builtins/tokenRules.js";
import { assignment } from "./builtins/types.js";
import { POLICY_ID_RE } from "./customPolicy.js";
import { effectiveBuiltin } from "./effective.js";
import { patternProblem } from "./pattern.js";
import { toResolved } from "./policy.js";
import { resolveBuiltins } from "./resolveBuiltins.js";
import { checkSettingsPatch } from "./settings.js";

// Rule behaviour (true and false positives) is tested against the fixtures under
// services/policy/fixtures by services/evaluation/src/builtins.fixtures.test.ts, with the engine.

describe("built-in policies", () => {
  it("keep the historical ids, in id order, among at least 12 policies and 80 rules", () => {
    const ids = BUILTIN_POLICIES.map((p) => p.id);
    expect(ids).toEqual([...ids].sort());
    expect(ids).toEqual(
      expect.arrayContaining(["aws-credentials", "dangerous-eval", "hardcoded-credentials", "private-keys"]),
    );
    expect(ids.length).toBeGreaterThanOrEqual(12);
    expect(BUILTIN_POLICIES.flatMap((p) => p.patterns).length).toBeGreaterThanOrEqual(80);
  });

  it("are well-formed: slug ids, framework refs, RE2 patterns, docs links, suggestions", () => {
    for (const p of BUILTIN_POLICIES) {
      expect(p.id).toMatch(POLICY_ID_RE);
      expect(["secrets", "security", "configuration"]).toContain(p.category);
      expect(p.documentation_url).toBe(`https://verdict.dev/docs/policies/${p.id}`);
      expect(p.suggestions.length).toBeGreaterThan(0);
      expect(p.frameworks.length).toBeGreaterThan(0);
      for (const ref of p.frameworks) expect(ref).toMatch(/^[a-z0-9-]+:[A-Za-z0-9._()-]+$/);
      for (const pattern of p.patterns) {
        if (pattern.type === "structural") {
          // Syntax-aware rules: JSON naming languages and an ast-grep rule (the engine compiles
          // each one for each language in services/evaluation's fixtures test), no RE2 parts.
          const spec = JSON.parse(pattern.value) as { languages: unknown; rule: unknown };
          expect(Array.isArray(spec.languages) && spec.languages.length > 0).toBe(true);
          expect(typeof spec.rule).toBe("object");
          expect(pattern.redact_group ?? 0).toBe(0);
          expect(p.category).not.toBe("secrets");
          continue;
        }
        expect(patternProblem(pattern.value)).toBeUndefined();
        // The group meant to hold the secret exists: `|` makes the pattern match "", and the
        // match array then has one slot per capture group.
        const groups = new RE2(`${pattern.value}|`, "u").exec("")!.length - 1;
        expect(groups).toBeGreaterThanOrEqual(pattern.redact_group ?? 0);
        const conditions = [
          pattern.paths,
          pattern.allowlist,
          pattern.match_allowlist,
          pattern.line_allowlist,
          pattern.file_requires,
          pattern.file_excludes,
        ];
        for (const re of conditions.flatMap((c) => c ?? [])) expect(() => new RE2(re, "u")).not.toThrow();
        for (const w of pattern.stopwords ?? []) expect(w).toBe(w.toLowerCase());
        for (const k of pattern.keywords ?? []) expect(k).toBe(k.toLowerCase());
      }
    }
  });

  it("give every rule a kebab-case id unique across all built-ins", () => {
    const ids = BUILTIN_POLICIES.flatMap((p) => p.patterns.map((r) => r.id));
    for (const id of ids) expect(id).toMatch(/^[a-z0-9]+(?:-[a-z0-9]+)*$/);
    expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
  });

  it("all have an exclude_paths setting, defaulting to none", () => {
    for (const p of BUILTIN_POLICIES) expect(effectiveBuiltin(p).settings).toMatchObject({ exclude_paths: [] });
    const def = findBuiltin("private-keys")!;
    expect(checkSettingsPatch(def.id, def.settings, { exclude_paths: ["test/**", "**/*.pem"] })).toEqual([]);
    expect(checkSettingsPatch(def.id, def.settings, { exclude_paths: [""] })).toHaveLength(1);
    expect(
      checkSettingsPatch(def.id, def.settings, { exclude_paths: Array.from({ length: 101 }, (_, i) => `dir${i}/**`) }),
    ).toHaveLength(1);
    expect(toResolved(effectiveBuiltin(def, { settings: { exclude_paths: ["test/**"] } })).exclude_paths).toEqual([
      "test/**",
    ]);
  });

  it("switches the API key pattern on only with detect_api_keys", () => {
    const def = findBuiltin("hardcoded-credentials")!;
    const off = effectiveBuiltin(def);
    expect(off.settings).toEqual({ detect_api_keys: false, exclude_paths: [] });
    expect(off.patterns.map((p) => p.id)).toEqual([
      "password-assignment",
      "password-comparison",
      "password-comparison-literal-first",
      "curl-basic-auth",
      "curl-auth-header",
    ]);
    const on = effectiveBuiltin(def, { settings: { detect_api_keys: true } });
    expect(on.patterns.map((p) => p.id)).toEqual([
      "password-assignment",
      "password-comparison",
      "password-comparison-literal-first",
      "curl-basic-auth",
      "curl-auth-header",
      "generic-api-key-assignment",
    ]);
    expect(on.patterns[5]).not.toHaveProperty("enabled_by");
  });

  it("applies the generic-secrets min_entropy setting to its entropy-gated rules only", () => {
    const def = findBuiltin("generic-secrets")!;
    const byRule = (settings?: Record<string, unknown>) =>
      Object.fromEntries(
        toResolved(effectiveBuiltin(def, settings ? { settings } : undefined)).patterns.map((p) => [
          p.rule_id,
          p.min_entropy,
        ]),
      );
    expect(byRule()).toMatchObject({ "generic-secret-assignment": 3.5, "bearer-token-header": 3.5, jwt: 0 });
    expect(byRule({ min_entropy: 4.2 })).toMatchObject({
      "generic-secret-assignment": 4.2,
      "bearer-token-header": 4.2,
      jwt: 0,
    });
    expect(checkSettingsPatch(def.id, def.settings, { min_entropy: 9 })).toHaveLength(1);
  });

  it("applies overrides to severity and enabled", () => {
    const p = effectiveBuiltin(findBuiltin("dangerous-eval")!, {
      enabled: false,
      severity: "error",
      updated_at: "2026-01-01T00:00:00.000Z",
    });
    expect(p).toMatchObject({
      enabled: false,
      severity: "error",
      builtin: true,
      updated_at: "2026-01-01T00:00:00.000Z",
    });
  });

  it("resolves secrets for redaction with the capture group that holds the secret, and rule ids", () => {
    const creds = toResolved(effectiveBuiltin(findBuiltin("hardcoded-credentials")!));
    expect(creds).toMatchObject({
      id: "hardcoded-credentials",
      severity: "error",
      category: "secrets",
      exclude_paths: [],
    });
    expect(creds.suggestion).toMatch(/environment variables/);
    expect(creds.patterns).toEqual(
      [
        "password-assignment",
        "password-comparison",
        "password-comparison-literal-first",
        "curl-basic-auth",
        "curl-auth-header",
      ].map((rule_id) => expect.objectContaining({ redact: true, redact_group: 1, rule_id })),
    );
    const aws = toResolved(effectiveBuiltin(findBuiltin("aws-credentials")!));
    expect(aws.patterns[0]).toMatchObject({
      redact: true,
      redact_group: 0,
      rule_id: "aws-access-key-id",
      keywords: expect.arrayContaining(["akia"]),
    });
    const evalPolicy = toResolved(effectiveBuiltin(findBuiltin("dangerous-eval")!));
    expect(evalPolicy.patterns.every((p) => !p.redact)).toBe(true);
    expect(evalPolicy.patterns.find((p) => p.rule_id === "python-eval-exec")!.paths).toEqual([String.raw`(?i)\.pyw?$`]);
  });
});

describe("claims", () => {
  // That the claims are backed by rules with true-positive samples is tested with the fixtures
  // (services/evaluation/src/builtins.fixtures.test.ts); here, that the docs state them.
  const table = readFileSync(fileURLToPath(new URL("../../../../docs/policies.md", import.meta.url)), "utf8");

  it("are listed in docs/policies.md, for every policy but the secret ones, as the definitions have them", () => {
    const rows = table.split("\n").filter((l) => /^\| `[a-z0-9-]+` \| CWE-/.test(l));
    const expected = BUILTIN_POLICIES.filter((p) => p.category !== "secrets").map(
      (p) => `| \`${p.id}\` | ${Object.keys(p.claims.cwe).join(", ")} | ${p.claims.languages.join(", ")} |`,
    );
    expect(rows).toEqual(expected);
  });
});

describe("resolveBuiltins", () => {
  it("resolves every built-in with its defaults, and merges per-policy setting overrides", () => {
    const defaults = resolveBuiltins();
    expect(defaults.map((p) => p.id)).toEqual(BUILTIN_POLICIES.map((p) => p.id));
    const creds = (policies: ReturnType<typeof resolveBuiltins>) =>
      policies.find((p) => p.id === "hardcoded-credentials")!;
    expect(creds(defaults).patterns.map((p) => p.rule_id)).toEqual([
      "password-assignment",
      "password-comparison",
      "password-comparison-literal-first",
      "curl-basic-auth",
      "curl-auth-header",
    ]);
    const on = resolveBuiltins({
      "hardcoded-credentials": { detect_api_keys: true },
      "private-keys": { exclude_paths: ["test/**"] },
    });
    expect(creds(on).patterns.map((p) => p.rule_id)).toEqual([
      "password-assignment",
      "password-comparison",
      "password-comparison-literal-first",
      "curl-basic-auth",
      "curl-auth-header",
      "generic-api-key-assignment",
    ]);
    expect(on.find((p) => p.id === "private-keys")!.exclude_paths).toEqual(["test/**"]);
  });

  it("refuses unknown policies and unknown or mistyped settings instead of ignoring them", () => {
    expect(() => resolveBuiltins({ "no-such-policy": {} })).toThrow(/Unknown built-in policy 'no-such-policy'/);
    expect(() => resolveBuiltins({ "hardcoded-credentials": { detect_everything: true } })).toThrow(
      /settings\.detect_everything/,
    );
    expect(() => resolveBuiltins({ "generic-secrets": { min_entropy: "high" } })).toThrow(/settings\.min_entropy/);
  });
});

describe("assignment(): one pattern for a secret assigned in any syntax", () => {
  const re = new RE2(assignment(String.raw`api[_.-]?key|apikey`, String.raw`[A-Za-z0-9]{24}`), "u");
  const secret = "Zx9Qw8Er7Ty6Ui5Op4As3Df2";
  const found = (line: string) => re.exec(line)?.[1];

  it.each([
    [`api_key = "${secret}"`],
    [`API_KEY=${secret}`],
    [`api_key: ${secret}`],
    [`"apiKey": "${secret}",`],
    [`apiKey := "${secret}"`],
    [`var apiKey string = "${secret}"`],
    [`API_KEY ?= ${secret}`],
    [`'api_key' => '${secret}',`],
    [`<apiKey>${secret}</apiKey>`],
    [`<apiKey>\n    ${secret}\n</apiKey>`],
    [`props.setProperty("api.key", "${secret}");`],
    [`define('API_KEY', '${secret}');`],
    [`$api_key = '${secret}';`],
    [`config['api_key'] = "${secret}"`],
    [`export STRIPE_API_KEY_PROD='${secret}'`],
  ])("captures the secret in %s", (line) => {
    expect(found(line)).toBe(secret);
  });

  it("does not cut a longer value short, and needs an operator", () => {
    expect(found(`api_key = "${secret}EXTRA"`)).toBeUndefined();
    expect(found(`the api key ${secret} is shown`)).toBeUndefined();
  });
});

describe("provider families", () => {
  const detection = readFileSync(fileURLToPath(new URL("../../../../docs/detection.md", import.meta.url)), "utf8");

  it("each name a documentation page, and a prefix or provider keywords for their context", () => {
    const ids = PROVIDER_FAMILIES.map((f) => f.id);
    expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
    for (const f of PROVIDER_FAMILIES) {
      expect(f.docs).toMatch(/^https:\/\/[a-z0-9.-]+\.[a-z]+\//i);
      expect(Boolean(f.prefix) || Boolean(f.keywords?.length)).toBe(true);
      for (const k of f.keywords ?? []) expect(k).toBe(k.toLowerCase());
      const rule = providerRule(f);
      expect(rule.documentation_url).toBe(f.docs);
      // A generic shape never stands alone: its rule carries the provider context.
      expect(rule.context?.keywords).toEqual(f.keywords);
    }
  });

  it("are listed in docs/detection.md, each with its documentation link", () => {
    const rows = detection.split("\n").filter((l) => l.startsWith("| `"));
    const missing = PROVIDER_FAMILIES.filter(
      (f) => !rows.some((r) => r.startsWith(`| \`${f.id}\` |`) && r.includes(f.docs)),
    ).map((f) => f.id);
    expect(missing).toEqual([]);
  });

  it("and the credential-file rules, each with the page that documents its file's format", () => {
    const rows = detection.split("\n").filter((l) => l.trimStart().startsWith("| `"));
    const missing = CREDENTIAL_FILE_RULES.filter(
      (r) =>
        !r.documentation_url ||
        !rows.some((row) => row.trimStart().startsWith(`| \`${r.id}\` |`) && row.includes(r.documentation_url!)),
    ).map((r) => r.id);
    expect(missing).toEqual([]);
  });
});
