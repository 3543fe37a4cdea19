// The facts the account-binding rule (domain/account.ts) decides on, gathered across organizations.
import type { AccountStanding } from "../../domain/account.js";
import type { IdentityDeps } from "../../deps.js";
import type { UserRecord } from "../../repos/accountRepo.js";

export async function accountStanding(deps: IdentityDeps, user: UserRecord): Promise<AccountStanding> {
  const active = await deps.members.activeMembershipsOf(user.id);
  // SCIM links count too: accounts provisioned before the binding was kept on the account.
  const scim = await deps.scim.organizationsLinking(user.id);
  return {
    hasPassword: user.password_hash !== null,
    idpOrganizationIds: [...new Set([...(user.idp_organization_ids ?? []), ...scim])],
    activeOrganizationIds: active.map((m) => m.organization_id),
  };
}
