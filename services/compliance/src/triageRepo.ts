// Members' triage of findings (false positive, accepted risk), one document per organization,
// repository and finding identity, through the Store port. The finding states themselves are
// derived, never stored (domain/findings.ts): only the decisions are. Each change is written with
// its finding.updated event through the outbox, so neither is ever kept without the other.
import { createHash } from "node:crypto";
import { OutboxRepository, type Outbox, type PendingEvent } from "@verdict/outbox";
import { collectionDef, DuplicateKeyError, type Store } from "@verdict/store";
import type { TriageFact } from "./domain/findings.js";

export interface TriageDoc extends TriageFact {
  id: string;
  organization_id: string;
  /** When the expiry sweep announced that this accepted risk expired (it claims each expiry once). */
  expiry_announced_at?: string;
}

const idOf = (organizationId: string, repository: string, identity: string) =>
  `tri_${createHash("sha256").update([organizationId, repository, identity].join("\u0000")).digest("hex").slice(0, 32)}`;

/** The collections and the indexes their queries use. */
const COLLECTIONS = {
  triage: collectionDef<TriageDoc>("compliance_triage", [
    { name: "org_id", fields: { organization_id: 1, id: 1 } },
    { name: "expires_at", fields: { expires_at: 1 } },
  ]),
};

export class TriageRepo extends OutboxRepository<typeof COLLECTIONS> {
  constructor(store: Store, outbox: Outbox) {
    super(store, outbox, COLLECTIONS, ["triage"]);
  }

  /** Every decision of the organization in force (they apply to findings of any period). */
  forOrganization(organizationId: string): Promise<TriageDoc[]> {
    // A decision taken back stays until its event is out (the outbox deletes it then).
    return this.c.triage.find({ organization_id: organizationId, _outbox_delete: { $exists: false } });
  }

  /** Records a decision, replacing the finding's earlier one, with the events that announce it. */
  async put(organizationId: string, fact: TriageFact, events: PendingEvent[]): Promise<void> {
    const doc: TriageDoc = {
      id: idOf(organizationId, fact.repository, fact.identity),
      organization_id: organizationId,
      ...fact,
    };
    const filter = { id: doc.id, organization_id: organizationId };
    // A new decision is announced afresh when it expires.
    const unset = fact.expires_at ? ["expiry_announced_at"] : ["expires_at", "expiry_announced_at"];
    if (await this.outbox.update(this.c.triage, filter, doc, events, unset)) return;
    try {
      await this.outbox.insert(this.c.triage, doc, events);
    } catch (err) {
      // Another request recorded one meanwhile: this one is the later decision.
      if (!(err instanceof DuplicateKeyError)) throw err;
      await this.outbox.update(this.c.triage, filter, doc, events, unset);
    }
  }

  /** Accepted risks of every organization that expired by `now` and were not announced yet (oldest first). */
  expiredUnannounced(now: string, limit: number): Promise<TriageDoc[]> {
    return this.c.triage.find(
      { expires_at: { $lte: now }, expiry_announced_at: { $exists: false }, _outbox_delete: { $exists: false } },
      { sort: { expires_at: 1 }, limit },
    );
  }

  /**
   * Claims an expired decision's announcement: marks it announced with its events, only if it is
   * still the decision read (same expiry and update) and nobody announced it yet. Several replicas
   * sweeping at once: exactly one gets true.
   */
  async announceExpiry(doc: TriageDoc, at: string, events: PendingEvent[]): Promise<boolean> {
    const filter = {
      id: doc.id,
      organization_id: doc.organization_id,
      expires_at: doc.expires_at!,
      updated_at: doc.updated_at,
      expiry_announced_at: { $exists: false },
      _outbox_delete: { $exists: false },
    };
    return (await this.outbox.update(this.c.triage, filter, { expiry_announced_at: at }, events)) !== null;
  }

  /** Takes a decision back (the finding is what its evaluations say again); whether there was one. */
  remove(organizationId: string, repository: string, identity: string, events: PendingEvent[]): Promise<boolean> {
    return this.outbox.remove(
      this.c.triage,
      { id: idOf(organizationId, repository, identity), organization_id: organizationId },
      events,
    );
  }
}
