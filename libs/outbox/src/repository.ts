// What a repository whose changes are written with their events does at start-up, once: its
// collections are declared in one table (`collectionDef` from @verdict/store) and opened on the
// store; `init` creates their indexes and registers the ones whose changes carry events with the
// outbox (its index, and the sweep of events a crash left behind). A repository adds the methods
// named for what its use cases ask.
import {
  ensureDeclaredIndexes,
  openCollections,
  type Collection,
  type CollectionDefs,
  type Collections,
  type Doc,
  type Store,
} from "@verdict/store";
import type { Outbox } from "./outbox.js";

export abstract class OutboxRepository<D extends CollectionDefs> {
  /** The declared collections, opened. */
  readonly c: Collections<D>;

  protected constructor(
    store: Store,
    protected readonly outbox: Outbox,
    private readonly defs: D,
    /** The collections whose changes carry events (written through the outbox). */
    private readonly published: readonly (keyof D)[],
  ) {
    this.c = openCollections(store, defs);
  }

  /** Creates the declared indexes, then lets the outbox publish and sweep the published collections. */
  async init(): Promise<void> {
    await ensureDeclaredIndexes(this.c, this.defs);
    await this.outbox.register(...this.published.map((key) => this.c[key] as Collection<Doc>));
  }
}
