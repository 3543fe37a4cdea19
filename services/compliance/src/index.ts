export type { Catalog, CatalogControl, CatalogKind } from "./domain/catalogs/types.js";
export { startComplianceService, type ComplianceService, type ComplianceServiceOptions } from "./main.js";
export { complianceConfig, complianceOptions, complianceProcessConfig, type ComplianceConfig } from "./config.js";
