// Live coverage: a control is covered when at least one enabled policy maps to it. Policies name
// controls in `frameworks` as `<catalog id>:<control id>`.
import type { Catalog } from "./catalogs/types.js";

export interface PolicyMapping {
  id: string;
  enabled: boolean;
  frameworks: string[];
}

export interface ControlCoverage {
  id: string;
  name: string;
  covered: boolean;
  /** Enabled policies mapped to the control, sorted. */
  policies: string[];
}

export interface FrameworkCoverage {
  framework: { id: string; name: string; version: string };
  coverage: number;
  controls: ControlCoverage[];
  total: number;
  covered: number;
}

/** `<catalog>:<control>` -> policy ids mapped to it (all policies, or only enabled ones). */
export function controlPolicies(policies: PolicyMapping[], onlyEnabled: boolean): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const p of policies) {
    if (onlyEnabled && !p.enabled) continue;
    for (const ref of new Set(p.frameworks)) {
      const list = out.get(ref) ?? [];
      list.push(p.id);
      out.set(ref, list);
    }
  }
  for (const list of out.values()) list.sort();
  return out;
}

/** Integer percentage, rounded down so 100 means every control (never 99.6 shown as 100). */
export function percent(covered: number, total: number): number {
  return total === 0 ? 0 : Math.floor((covered * 100) / total);
}

export function frameworkCoverage(catalog: Catalog, policies: PolicyMapping[]): FrameworkCoverage {
  const mapped = controlPolicies(policies, true);
  const controls = catalog.controls.map((c) => {
    const ids = mapped.get(`${catalog.id}:${c.id}`) ?? [];
    return { id: c.id, name: c.title, covered: ids.length > 0, policies: ids };
  });
  const covered = controls.filter((c) => c.covered).length;
  return {
    framework: { id: catalog.id, name: catalog.name, version: catalog.version },
    coverage: percent(covered, controls.length),
    controls,
    total: controls.length,
    covered,
  };
}
