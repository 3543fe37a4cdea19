export type { Catalog, CatalogControl, CatalogKind } from "./domain/catalogs/types.js";
export { startComplianceService, type ComplianceService, type ComplianceServiceOptions } from "./main.js";
