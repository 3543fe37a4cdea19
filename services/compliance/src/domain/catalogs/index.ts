// The built-in framework catalogs, in display order: first-class frameworks first, then the other
// frameworks, then regulations. Policies reference their controls as `<catalog id>:<control id>`.
import { cwe } from "./cwe.js";
import { nistSsdf } from "./nist-ssdf.js";
import { owaspAsvs } from "./owasp-asvs.js";
import { soc2 } from "./soc2.js";
import type { Catalog, CatalogControl } from "./types.js";

export type { Catalog, CatalogControl, CatalogKind } from "./types.js";

export const CATALOGS: readonly Catalog[] = [nistSsdf, soc2, owaspAsvs, cwe];

export const FRAMEWORK_IDS: readonly string[] = CATALOGS.map((c) => c.id);

const BY_ID = new Map(CATALOGS.map((c) => [c.id, c]));

export function catalogById(id: string): Catalog | undefined {
  return BY_ID.get(id);
}

/** The control a `<catalog id>:<control id>` reference names, if both exist. */
export function resolveControlRef(ref: string): { catalog: Catalog; control: CatalogControl } | undefined {
  const colon = ref.indexOf(":");
  if (colon < 0) return undefined;
  const catalog = BY_ID.get(ref.slice(0, colon));
  const control = catalog?.controls.find((c) => c.id === ref.slice(colon + 1));
  return catalog && control ? { catalog, control } : undefined;
}
