// The policy library without the service: what `verdict evaluate --offline` resolves on a
// developer's machine. Pure functions of the built-in definitions and of an organization's
// policies as GET /v1/policies lists them; the same effective view, resolution and version as
// the policy service computes for that organization (usecases/resolvePolicies.ts).
import { BUILTIN_POLICIES, findBuiltin } from "./domain/builtins/index.js";
import { effectiveBuiltin, effectiveCustom } from "./domain/effective.js";
import {
  comparePolicies,
  policyVersion,
  toResolved,
  type EffectivePolicy,
  type PatternDef,
  type ResolvedPolicy,
  type Severity,
} from "./domain/policy.js";

export { policyVersion, type ResolvedPolicy };

/** A policy as GET /v1/policies answers it: a built-in with the organization's choices, or a custom policy. */
export interface ListedPolicy {
  id: string;
  name: string;
  description: string;
  severity: string;
  enabled: boolean;
  category: string;
  frameworks: string[];
  patterns: { type: string; value: string; message: string }[];
  suggestions: { text: string }[];
  settings: Record<string, unknown>;
  documentation_url: string | null;
  builtin: boolean;
  created_at?: string | null;
  updated_at?: string | null;
}

/**
 * An organization's effective policies: every built-in of this library with the organization's
 * choices (enabled, severity, settings) from `listed`, and its custom policies as listed; without
 * `listed`, the built-ins as a new organization has them. A built-in this library does not have
 * (the server is newer) is left out.
 */
export function effectiveFromListed(listed: readonly ListedPolicy[] = []): EffectivePolicy[] {
  const chosen = new Map(listed.filter((p) => p.builtin).map((p) => [p.id, p]));
  const builtins = BUILTIN_POLICIES.map((def) => {
    const p = chosen.get(def.id);
    return effectiveBuiltin(
      def,
      p ? { enabled: p.enabled, severity: p.severity as Severity, settings: p.settings } : undefined,
    );
  });
  const custom = listed
    .filter((p) => !p.builtin && !findBuiltin(p.id))
    .map((p) =>
      effectiveCustom({
        id: p.id,
        name: p.name,
        description: p.description,
        severity: p.severity as Severity,
        enabled: p.enabled,
        category: p.category,
        frameworks: p.frameworks,
        documentation_url: p.documentation_url ?? "",
        patterns: p.patterns as PatternDef[],
        suggestions: p.suggestions,
        created_at: p.created_at ?? "",
        updated_at: p.updated_at ?? "",
      }),
    );
  return [...builtins, ...custom].sort(comparePolicies);
}

/**
 * The policies an evaluation runs, as the policy service resolves them: every enabled one, or the
 * enabled ones among `ids` (naming a disabled policy does not switch it on). Unknown ids are
 * returned, not resolved.
 */
export function resolveEffective(
  all: readonly EffectivePolicy[],
  ids: readonly string[] = [],
): { policies: ResolvedPolicy[]; version: string; unknown: string[] } {
  const byId = new Map(all.map((p) => [p.id, p]));
  const unknown = ids.filter((id) => !byId.has(id));
  const chosen = ids.length ? [...new Set(ids)].flatMap((id) => byId.get(id) ?? []) : all;
  const policies = chosen.filter((p) => p.enabled).map(toResolved);
  return { policies, version: policyVersion(policies), unknown };
}
