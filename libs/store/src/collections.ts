// What every repository does with its collections, once: it declares each one (its name in the
// store and the indexes its queries use) in one table, opens them on the store, and creates the
// indexes when the service starts (idempotent: an index that exists is left as it is). A
// repository's methods are what differ; this is the part that was the same in each.
import type { Collection, Doc, IndexSpec, Store } from "./port.js";

/** A collection a repository owns: its name in the store and the indexes its queries use. */
export interface CollectionDef<T extends Doc> {
  readonly name: string;
  readonly indexes: readonly IndexSpec[];
  /** Carries the document type only; never set. */
  readonly doc?: T;
}

/** Declares a collection of `T` documents. */
export function collectionDef<T extends Doc>(name: string, indexes: readonly IndexSpec[] = []): CollectionDef<T> {
  return { name, indexes };
}

// any: each entry keeps its own document type, which Collections reads back.
export type CollectionDefs = Record<string, CollectionDef<any>>;

/** The declared collections, opened: the same keys, each a Collection of its documents. */
export type Collections<D extends CollectionDefs> = {
  readonly [K in keyof D]: D[K] extends CollectionDef<infer T> ? Collection<T> : never;
};

/** Opens each declared collection on the store. */
export function openCollections<D extends CollectionDefs>(store: Store, defs: D): Collections<D> {
  const out: Record<string, Collection<Doc>> = {};
  for (const [key, def] of Object.entries(defs)) out[key] = store.collection(def.name);
  return out as Collections<D>;
}

/** Creates the declared indexes of every collection that has any, in the table's order. */
export async function ensureDeclaredIndexes<D extends CollectionDefs>(
  collections: Collections<D>,
  defs: D,
): Promise<void> {
  for (const [key, def] of Object.entries(defs)) {
    if (def.indexes.length) await (collections[key] as Collection<Doc>).ensureIndexes([...def.indexes]);
  }
}
