// Catalog data is written as compact [id, title] rows per family; this turns them into controls.
import type { CatalogControl } from "./types.js";

export type ControlRow = readonly [id: string, title: string];

/** The controls of one family (group), in the order given. */
export function family(group: string, rows: readonly ControlRow[]): CatalogControl[] {
  return rows.map(([id, title]) => ({ id, title, group }));
}
