export type { Catalog, CatalogControl, CatalogKind } from "./domain/catalogs/types.js";
