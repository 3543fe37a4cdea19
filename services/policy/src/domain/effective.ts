// The effective view of a policy for one organization.
import type { BuiltinPolicy } from "./builtins/index.js";
import type { CustomPolicy } from "./customPolicy.js";
import type { EffectivePolicy, PatternDef, Severity } from "./policy.js";
import { effectiveSettings } from "./settings.js";

/** What an organization changed on a built-in; unset fields keep the built-in's default. */
export interface PolicyOverride {
  enabled?: boolean;
  severity?: Severity;
  settings?: Record<string, unknown>;
  updated_at?: string;
}

export function effectiveBuiltin(def: BuiltinPolicy, override?: PolicyOverride): EffectivePolicy {
  const settings = effectiveSettings(def.settings, override?.settings);
  // Patterns switched on by a boolean setting only run (and only show) while it is on.
  const patterns: PatternDef[] = def.patterns
    .filter((p) => p.enabled_by === undefined || settings[p.enabled_by] === true)
    .map(({ enabled_by: _enabledBy, ...pattern }) => pattern);
  return {
    id: def.id,
    name: def.name,
    description: def.description,
    severity: override?.severity ?? def.severity,
    enabled: override?.enabled ?? def.enabled,
    category: def.category,
    frameworks: [...def.frameworks],
    patterns,
    suggestions: def.suggestions.map((text) => ({ text })),
    settings,
    documentation_url: def.documentation_url,
    builtin: true,
    languages: def.claims.languages,
    ...(override?.updated_at ? { updated_at: override.updated_at } : {}),
  };
}

export function effectiveCustom(policy: CustomPolicy): EffectivePolicy {
  return {
    ...policy,
    frameworks: [...policy.frameworks],
    patterns: [...policy.patterns],
    suggestions: [...policy.suggestions],
    settings: {},
    builtin: false,
  };
}
