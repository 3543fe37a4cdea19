// Members' triage of findings (false positive, accepted risk), one document per organization,
// repository and finding identity, through the Store port. The finding states themselves are
// derived, never stored (domain/findings.ts): only the decisions are.
import { createHash } from "node:crypto";
import { DuplicateKeyError, type Collection, type Store } from "@verdict/store";
import type { TriageFact } from "./domain/findings.js";

export interface TriageDoc extends TriageFact {
  id: string;
  organization_id: string;
}

const idOf = (organizationId: string, repository: string, identity: string) =>
  `tri_${createHash("sha256").update([organizationId, repository, identity].join("\u0000")).digest("hex").slice(0, 32)}`;

export class TriageRepo {
  private readonly triage: Collection<TriageDoc>;

  constructor(store: Store) {
    this.triage = store.collection<TriageDoc>("compliance_triage");
  }

  async init(): Promise<void> {
    await this.triage.ensureIndexes([{ name: "org_id", fields: { organization_id: 1, id: 1 } }]);
  }

  /** Every decision of the organization (they apply to findings of any period). */
  forOrganization(organizationId: string): Promise<TriageDoc[]> {
    return this.triage.find({ organization_id: organizationId });
  }

  /** Records a decision, replacing the finding's earlier one. */
  async put(organizationId: string, fact: TriageFact): Promise<void> {
    const doc: TriageDoc = {
      id: idOf(organizationId, fact.repository, fact.identity),
      organization_id: organizationId,
      ...fact,
    };
    const set = doc;
    const unset = fact.expires_at ? [] : ["expires_at"];
    if (await this.triage.updateOne({ id: doc.id, organization_id: organizationId }, set, unset)) return;
    try {
      await this.triage.insertOne(doc);
    } catch (err) {
      // Another request recorded one meanwhile: this one is the later decision.
      if (!(err instanceof DuplicateKeyError)) throw err;
      await this.triage.updateOne({ id: doc.id, organization_id: organizationId }, set, unset);
    }
  }

  /** Takes a decision back (the finding is what its evaluations say again). */
  async remove(organizationId: string, repository: string, identity: string): Promise<void> {
    await this.triage.deleteOne({ id: idOf(organizationId, repository, identity), organization_id: organizationId });
  }
}
