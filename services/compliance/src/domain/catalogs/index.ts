// The built-in framework catalogs, in display order: first-class frameworks first, then the other
// frameworks, then regulations. Policies reference their controls as `<catalog id>:<control id>`.
import { cisControls } from "./cis-controls.js";
import { cmmc } from "./cmmc.js";
import { csaCcm } from "./csa-ccm.js";
import { cwe } from "./cwe.js";
import { cweTop25 } from "./cwe-top-25.js";
import { dora } from "./dora.js";
import { euCra } from "./eu-cra.js";
import { fedrampModerate } from "./fedramp-moderate.js";
import { gdpr } from "./gdpr.js";
import { hipaa } from "./hipaa.js";
import { iso27001 } from "./iso-27001.js";
import { nis2 } from "./nis2.js";
import { nist800171 } from "./nist-800-171.js";
import { nist80053 } from "./nist-800-53.js";
import { nistCsf } from "./nist-csf.js";
import { nistSsdf } from "./nist-ssdf.js";
import { owaspApiTop10 } from "./owasp-api-top-10.js";
import { owaspAsvs } from "./owasp-asvs.js";
import { owaspMasvs } from "./owasp-masvs.js";
import { owaspProactiveControls } from "./owasp-proactive-controls.js";
import { owaspSamm } from "./owasp-samm.js";
import { owaspTop10 } from "./owasp-top-10.js";
import { pciDss } from "./pci-dss.js";
import { soc2 } from "./soc2.js";
import type { Catalog, CatalogControl } from "./types.js";

export type { Catalog, CatalogControl, CatalogKind } from "./types.js";

export const CATALOGS: readonly Catalog[] = [
  // First-class frameworks
  nistSsdf,
  soc2,
  owaspAsvs,
  // Other frameworks
  owaspTop10,
  cweTop25,
  cwe,
  owaspApiTop10,
  owaspProactiveControls,
  owaspMasvs,
  owaspSamm,
  nistCsf,
  cisControls,
  iso27001,
  csaCcm,
  // Regulations and mandated baselines
  pciDss,
  hipaa,
  gdpr,
  nist80053,
  fedrampModerate,
  nist800171,
  cmmc,
  nis2,
  dora,
  euCra,
];

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
