import { describe, expect, it } from "@jest/globals";
import RE2 from "re2";
import { BUILTIN_POLICIES, findBuiltin } from "./builtins.js";
import { POLICY_ID_RE } from "./customPolicy.js";
import { effectiveBuiltin } from "./effective.js";
import { patternProblem } from "./pattern.js";
import { toResolved } from "./policy.js";

describe("built-in policies", () => {
  it("are well-formed: slug ids, framework refs, RE2 patterns, docs links, suggestions", () => {
    expect(BUILTIN_POLICIES.map((p) => p.id)).toEqual(["aws-credentials", "dangerous-eval", "hardcoded-credentials", "private-keys"]);
    for (const p of BUILTIN_POLICIES) {
      expect(p.id).toMatch(POLICY_ID_RE);
      expect(p.documentation_url).toBe(`https://verdict.dev/docs/policies/${p.id}`);
      expect(p.suggestions.length).toBeGreaterThan(0);
      for (const ref of p.frameworks) expect(ref).toMatch(/^(nist-ssdf|soc2|owasp-asvs):[A-Z]+[0-9.]+$/);
      for (const pattern of p.patterns) {
        expect(patternProblem(pattern.value)).toBeUndefined();
        // The group meant to hold the secret exists: `|` makes the pattern match "", and the
        // match array then has one slot per capture group.
        const groups = new RE2(`${pattern.value}|`, "u").exec("")!.length - 1;
        expect(groups).toBeGreaterThanOrEqual(pattern.redact_group ?? 0);
      }
    }
  });

  it("switches the API key pattern on only with detect_api_keys", () => {
    const def = findBuiltin("hardcoded-credentials")!;
    const off = effectiveBuiltin(def);
    expect(off.settings).toEqual({ detect_api_keys: false });
    expect(off.patterns).toHaveLength(1);
    const on = effectiveBuiltin(def, { settings: { detect_api_keys: true } });
    expect(on.patterns).toHaveLength(2);
    expect(on.patterns[1]).not.toHaveProperty("enabled_by");
  });

  it("applies overrides to severity and enabled", () => {
    const p = effectiveBuiltin(findBuiltin("dangerous-eval")!, { enabled: false, severity: "error", updated_at: "2026-01-01T00:00:00.000Z" });
    expect(p).toMatchObject({ enabled: false, severity: "error", builtin: true, updated_at: "2026-01-01T00:00:00.000Z" });
  });

  it("resolves secrets for redaction with the capture group that holds the secret", () => {
    const creds = toResolved(effectiveBuiltin(findBuiltin("hardcoded-credentials")!));
    expect(creds).toMatchObject({ id: "hardcoded-credentials", severity: "error", category: "secrets" });
    expect(creds.suggestion).toMatch(/environment variables/);
    expect(creds.patterns).toEqual([expect.objectContaining({ redact: true, redact_group: 1 })]);
    const aws = toResolved(effectiveBuiltin(findBuiltin("aws-credentials")!));
    expect(aws.patterns).toEqual([expect.objectContaining({ redact: true, redact_group: 0 })]);
    const evalPolicy = toResolved(effectiveBuiltin(findBuiltin("dangerous-eval")!));
    expect(evalPolicy.patterns.every((p) => !p.redact)).toBe(true);
  });
});
