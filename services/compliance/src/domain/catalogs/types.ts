// The shape of a built-in framework catalog. Control titles are short descriptions in our own
// words (never the framework's copyrighted text); ids are the framework's own control ids, the
// same ids policies name in `frameworks` as `<catalog id>:<control id>`.

/** Frameworks are shown with control coverage; regulations with a coverage percentage only. */
export type CatalogKind = "framework" | "regulation";

export interface CatalogControl {
  /** The framework's own identifier, e.g. `PW.5.1`, `CC6.1`, `V2.10.4`, `164.312(a)(1)`. */
  id: string;
  /** A short title in our own words. */
  title: string;
  /** The family, practice group or chapter the control belongs to, e.g. `PW`, `CC6`, `V2`. */
  group?: string;
}

export interface Catalog {
  /** Slug used in URLs and in policy `frameworks` entries, e.g. `nist-ssdf`. */
  id: string;
  name: string;
  /** The edition the controls follow, e.g. `1.1`, `2017 (2022 points of focus)`, `4.0.3`. */
  version: string;
  kind: CatalogKind;
  /** Where an auditor reads the authoritative text. */
  source_url: string;
  controls: CatalogControl[];
}
