// FedRAMP Rev. 5 Moderate baseline: the NIST SP 800-53 Rev. 5 controls of our `nist-800-53`
// catalog that the Moderate baseline selects (same ids and titles), as listed by FedRAMP's OSCAL
// profile "FedRAMP Rev 5 Moderate Baseline" (5.1.1). IA-9 and CM-14 are not in the baseline.
import { nist80053 } from "./nist-800-53.js";
import type { Catalog } from "./types.js";

const NOT_IN_MODERATE_BASELINE = new Set(["IA-9", "CM-14"]);

export const fedrampModerate: Catalog = {
  id: "fedramp-moderate",
  name: "FedRAMP Moderate",
  version: "Rev. 5 baseline",
  kind: "regulation",
  source_url: "https://www.fedramp.gov/documents-templates/",
  controls: nist80053.controls.filter((c) => !NOT_IN_MODERATE_BASELINE.has(c.id)).map((c) => ({ ...c })),
};
