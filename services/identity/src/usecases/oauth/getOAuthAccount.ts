import { errors } from "@verdict/kit";
import type { IdentityDeps } from "../../deps.js";
import { roleScopes } from "../../domain/member.js";

export interface OAuthAccount {
  userId: string;
  organizationId: string;
  email: string;
  name: string;
  roleScopes: string[];
}

export interface GetOAuthAccountQuery {
  accountId: string;
}

/** The member an OAuth account id (`<organization_id>.<user_id>`) names, while still active. */
export async function getOAuthAccount(deps: IdentityDeps, { accountId }: GetOAuthAccountQuery): Promise<OAuthAccount> {
  const [organizationId, userId] = accountId.split(".");
  const membership = organizationId && userId ? await deps.members.find(organizationId, userId) : null;
  const user = membership?.status === "active" ? await deps.accounts.byId(membership.user_id) : null;
  if (!membership || !user) throw errors.notFound("account", accountId);
  return {
    userId: user.id,
    organizationId: membership.organization_id,
    email: user.email,
    name: user.name,
    roleScopes: roleScopes(membership.role),
  };
}
