import { errors } from "@verdict/kit";
import { withDefaults } from "../../domain/organization.js";
import type { IdentityDeps } from "../../deps.js";
import type { OrgRecord } from "../../repos/organizationRepo.js";

export interface OrganizationView extends OrgRecord {
  members_count: number;
  repositories_count: number;
}

export interface GetOrganizationCommand {
  organizationId: string;
}

/** An organization with its settings completed by the defaults and its member and repository counts. */
export async function getOrganization(deps: IdentityDeps, cmd: GetOrganizationCommand): Promise<OrganizationView> {
  const org = await deps.orgs.find(cmd.organizationId);
  if (!org) throw errors.notFound("organization", cmd.organizationId);
  const [members, repos] = await Promise.all([
    deps.members.activeMembersCount(cmd.organizationId),
    deps.policy.countRepositories({ organization_id: cmd.organizationId }),
  ]);
  return { ...org, settings: withDefaults(org.settings), members_count: members, repositories_count: repos.count };
}
