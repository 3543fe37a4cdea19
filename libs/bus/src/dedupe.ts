// A bounded memory of event ids a consumer group has taken, the first line of idempotent
// consumption (a re-published event, or one redelivered after a rebalance, is skipped). It is
// bounded, so handlers stay idempotent at the domain level too.
export class SeenIds {
  private readonly ids = new Set<string>();

  constructor(private readonly capacity = 10_000) {}

  /** Records the id; false when it was already there. */
  add(id: string): boolean {
    if (this.ids.has(id)) return false;
    this.ids.add(id);
    // A Set iterates in insertion order: the first entry is the oldest.
    if (this.ids.size > this.capacity) this.ids.delete(this.ids.values().next().value as string);
    return true;
  }

  /** Forgets an id whose handling did not finish, so a redelivery is handled. */
  forget(id: string): void {
    this.ids.delete(id);
  }
}
