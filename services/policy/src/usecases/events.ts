import { TOPICS } from "@verdict/bus";
import type { PolicyDeps } from "../deps.js";

export type PolicyChangeAction = "created" | "updated" | "deleted";

/** Data of `verdict.policy.changed`: consumers (compliance coverage, caches) re-read the policy. */
export interface PolicyChangedData {
  organization_id: string;
  policy_id: string;
  action: PolicyChangeAction;
}

export async function publishPolicyChanged(deps: PolicyDeps, organizationId: string, policyId: string, action: PolicyChangeAction): Promise<void> {
  const data: PolicyChangedData = { organization_id: organizationId, policy_id: policyId, action };
  await deps.bus.publish(TOPICS.policyChanged, { source: "/policy", subject: policyId, data });
  deps.logger.info(data, `policy ${action}`);
}
