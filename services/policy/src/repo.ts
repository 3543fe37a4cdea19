// The policy service's collections, through the Store port.
import { OutboxRepository, withoutOutbox, type Outbox, type PendingEvent } from "@verdict/outbox";
import { collectionDef, DuplicateKeyError, type Store } from "@verdict/store";
import type { CustomPolicy } from "./domain/customPolicy.js";
import type { PolicyOverride } from "./domain/effective.js";

/** An organization's changes to one built-in policy. */
export interface OverrideRecord extends PolicyOverride {
  /** `${organization_id}:${policy_id}` */
  id: string;
  organization_id: string;
  policy_id: string;
}

/**
 * A custom policy. Its id is chosen by the organization, so two organizations may use the same
 * one: the document id is `${organization_id}:${policy_id}`.
 */
export interface CustomPolicyRecord extends Omit<CustomPolicy, "id"> {
  id: string;
  organization_id: string;
  policy_id: string;
}

export interface RepositoryRecord {
  id: string;
  organization_id: string;
  name: string;
  provider: string;
  default_branch: string;
  connected_at: string;
  last_evaluation: string | null;
  /** The provider's stable id and the integrations connection it is read through (connected repositories). */
  provider_repo_id?: string;
  connection_id?: string;
}

export function policyDocId(organizationId: string, policyId: string): string {
  return `${organizationId}:${policyId}`;
}

/**
 * The collections and the indexes their queries use. org_policy: one override / custom policy
 * per (organization, policy id). org_provider_name: a repository connected once. org_name: the
 * repositories an evaluation names.
 */
const COLLECTIONS = {
  overrides: collectionDef<OverrideRecord>("policy_overrides", [
    { name: "org_policy", fields: { organization_id: 1, policy_id: 1 }, unique: true },
  ]),
  custom: collectionDef<CustomPolicyRecord>("policy_custom", [
    { name: "org_policy", fields: { organization_id: 1, policy_id: 1 }, unique: true },
  ]),
  repositories: collectionDef<RepositoryRecord>("policy_repositories", [
    { name: "org_provider_name", fields: { organization_id: 1, provider: 1, name: 1 }, unique: true },
    { name: "org_name", fields: { organization_id: 1, name: 1 } },
  ]),
};

/**
 * The policy service's collections, behind methods named for what the use cases ask. Every
 * query is scoped by organization. A change to a policy is written together with the event
 * that announces it (the outbox), so neither is ever lost without the other.
 */
export class PolicyRepo extends OutboxRepository<typeof COLLECTIONS> {
  constructor(store: Store, outbox: Outbox) {
    super(store, outbox, COLLECTIONS, ["custom", "overrides", "repositories"]);
  }

  // Policies

  /** An organization's overrides and custom policies, each by policy id. */
  async policyRecords(organizationId: string): Promise<{ overrides: OverrideRecord[]; custom: CustomPolicyRecord[] }> {
    const [overrides, custom] = await Promise.all([
      this.c.overrides.find({ organization_id: organizationId }, { sort: { policy_id: 1 } }),
      this.c.custom.find({ organization_id: organizationId }, { sort: { policy_id: 1 } }),
    ]);
    return { overrides, custom };
  }

  findOverride(organizationId: string, policyId: string): Promise<OverrideRecord | null> {
    return this.c.overrides.findOne({ id: policyDocId(organizationId, policyId), organization_id: organizationId });
  }

  findCustom(organizationId: string, policyId: string): Promise<CustomPolicyRecord | null> {
    return this.c.custom.findOne({ id: policyDocId(organizationId, policyId), organization_id: organizationId });
  }

  /** Patterns of all the organization's custom policies together (its budget). */
  async customPatternCount(organizationId: string): Promise<number> {
    return (await this.c.custom.find({ organization_id: organizationId })).reduce((n, p) => n + p.patterns.length, 0);
  }

  /** Stores a new custom policy with its event; throws DuplicateKeyError when the id is taken. */
  insertCustom(organizationId: string, policy: CustomPolicy, events: PendingEvent[]): Promise<void> {
    return this.outbox.insert(this.c.custom, toCustomPolicyRecord(organizationId, policy), events);
  }

  /** Changes a custom policy with its event; null when it does not exist. */
  updateCustom(
    organizationId: string,
    policyId: string,
    set: Partial<CustomPolicyRecord>,
    events: PendingEvent[],
  ): Promise<CustomPolicyRecord | null> {
    return this.outbox.update(
      this.c.custom,
      { id: policyDocId(organizationId, policyId), organization_id: organizationId },
      set,
      events,
    );
  }

  /** Deletes a custom policy with its event; false when it does not exist. */
  deleteCustom(organizationId: string, policyId: string, events: PendingEvent[]): Promise<boolean> {
    return this.outbox.remove(
      this.c.custom,
      { id: policyDocId(organizationId, policyId), organization_id: organizationId },
      events,
    );
  }

  /**
   * Writes a built-in's override with dot-path sets (`settings.<key>`) and unsets, so that
   * concurrent updates of different keys merge instead of overwriting each other. The Store has
   * no upsert: update, else insert `initial`, and if another request inserted first, update again.
   */
  async upsertOverride(
    initial: OverrideRecord,
    set: Record<string, unknown>,
    unset: string[],
    events: PendingEvent[],
  ): Promise<void> {
    const filter = { id: initial.id, organization_id: initial.organization_id };
    if (await this.outbox.update(this.c.overrides, filter, set as Partial<OverrideRecord>, events, unset)) return;
    try {
      await this.outbox.insert(this.c.overrides, initial, events);
    } catch (err) {
      if (!(err instanceof DuplicateKeyError)) throw err;
      await this.outbox.update(this.c.overrides, filter, set as Partial<OverrideRecord>, events, unset);
    }
  }

  // Repositories

  /** An organization's repositories by name. */
  listRepositories(organizationId: string): Promise<RepositoryRecord[]> {
    return this.c.repositories.find({ organization_id: organizationId }, { sort: { name: 1 } });
  }

  countRepositories(organizationId: string): Promise<number> {
    return this.c.repositories.count({ organization_id: organizationId });
  }

  /**
   * Stores a repository with its events (the audit event). Throws DuplicateKeyError when the
   * organization connected this provider and name already (race-free: a unique index).
   */
  insertRepository(record: RepositoryRecord, events: PendingEvent[]): Promise<void> {
    return this.outbox.insert(this.c.repositories, record, events);
  }

  findRepository(organizationId: string, repositoryId: string): Promise<RepositoryRecord | null> {
    return this.c.repositories.findOne({ id: repositoryId, organization_id: organizationId });
  }

  /** Renames a repository with its events; false when it does not exist. */
  renameRepository(
    organizationId: string,
    repositoryId: string,
    name: string,
    events: PendingEvent[],
  ): Promise<boolean> {
    const filter = { id: repositoryId, organization_id: organizationId };
    return this.outbox.update(this.c.repositories, filter, { name }, events).then((updated) => updated !== null);
  }

  /** Deletes a repository with its events; false when it does not exist. */
  deleteRepository(organizationId: string, repositoryId: string, events: PendingEvent[]): Promise<boolean> {
    return this.outbox.remove(this.c.repositories, { id: repositoryId, organization_id: organizationId }, events);
  }

  /**
   * Moves `last_evaluation` of the organization's repositories of that name forward to `at`,
   * never back: each write is conditional, so late or concurrent events cannot undo a newer one.
   */
  async recordLastEvaluation(organizationId: string, name: string, at: string): Promise<void> {
    const repos = await this.c.repositories.find({ organization_id: organizationId, name });
    for (const repo of repos) {
      const base = { id: repo.id, organization_id: organizationId };
      const set = { last_evaluation: at };
      const first = await this.c.repositories.updateOne({ ...base, last_evaluation: null }, set);
      if (!first) await this.c.repositories.updateOne({ ...base, last_evaluation: { $lt: at } }, set);
    }
  }
}

export function toCustomPolicy(record: CustomPolicyRecord): CustomPolicy {
  const { id: _docId, organization_id: _organizationId, policy_id, ...policy } = withoutOutbox(record);
  return { ...policy, id: policy_id };
}

export function toCustomPolicyRecord(organizationId: string, policy: CustomPolicy): CustomPolicyRecord {
  const { id: policyId, ...rest } = policy;
  return { ...rest, id: policyDocId(organizationId, policyId), organization_id: organizationId, policy_id: policyId };
}
