// The built-in library without a database: every built-in resolved as the evaluation engine
// receives it, for tools and tests in other packages.
import { BUILTIN_POLICIES, findBuiltin } from "./builtins/index.js";
import { effectiveBuiltin } from "./effective.js";
import { toResolved, type ResolvedPolicy } from "./policy.js";
import { checkSettingsPatch } from "./settings.js";

/**
 * Every built-in policy, resolved with its default settings merged with `settingsOverrides`
 * (keyed by policy id), exactly as the policy service resolves it for an organization that
 * changed only those settings. Throws on an unknown policy id or an unknown or mistyped setting,
 * which would otherwise be silently ignored.
 */
export function resolveBuiltins(settingsOverrides: Record<string, Record<string, unknown>> = {}): ResolvedPolicy[] {
  for (const [id, settings] of Object.entries(settingsOverrides)) {
    const def = findBuiltin(id);
    if (!def) throw new Error(`Unknown built-in policy '${id}'`);
    const problems = checkSettingsPatch(id, def.settings, settings);
    if (problems.length) throw new Error(problems.map((p) => `${p.field}: ${p.message}`).join("; "));
  }
  return BUILTIN_POLICIES.map((def) => {
    const settings = settingsOverrides[def.id];
    return toResolved(effectiveBuiltin(def, settings ? { settings } : undefined));
  });
}
