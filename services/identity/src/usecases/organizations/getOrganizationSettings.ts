import { errors } from "@verdict/kit";
import { withDefaults, type OrgSettings } from "../../domain/organization.js";
import type { IdentityDeps } from "../../deps.js";

export interface GetOrganizationSettingsCommand {
  organizationId: string;
}

/** An organization's settings, completed by the defaults. */
export async function getOrganizationSettings(
  deps: IdentityDeps,
  cmd: GetOrganizationSettingsCommand,
): Promise<OrgSettings> {
  const org = await deps.orgs.find(cmd.organizationId);
  if (!org) throw errors.notFound("organization", cmd.organizationId);
  return withDefaults(org.settings);
}
