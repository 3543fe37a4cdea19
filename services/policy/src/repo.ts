// The policy service's collections, through the Store port.
import { withoutOutbox } from "@verdict/outbox";
import type { Collection, Store } from "@verdict/store";
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
}

export function policyDocId(organizationId: string, policyId: string): string {
  return `${organizationId}:${policyId}`;
}

export class PolicyRepo {
  readonly overrides: Collection<OverrideRecord>;
  readonly custom: Collection<CustomPolicyRecord>;
  readonly repositories: Collection<RepositoryRecord>;

  constructor(store: Store) {
    this.overrides = store.collection<OverrideRecord>("policy_overrides");
    this.custom = store.collection<CustomPolicyRecord>("policy_custom");
    this.repositories = store.collection<RepositoryRecord>("policy_repositories");
  }

  async init(): Promise<void> {
    await this.overrides.ensureIndexes([{ name: "org_policy", fields: { organization_id: 1, policy_id: 1 }, unique: true }]);
    await this.custom.ensureIndexes([{ name: "org_policy", fields: { organization_id: 1, policy_id: 1 }, unique: true }]);
    await this.repositories.ensureIndexes([
      { name: "org_provider_name", fields: { organization_id: 1, provider: 1, name: 1 }, unique: true },
      { name: "org_name", fields: { organization_id: 1, name: 1 } },
    ]);
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
