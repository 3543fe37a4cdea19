// `enforce`: an organization whose members must sign in through its IdP refuses their
// passwords, except its owners' (the break-glass way in when the IdP is down).
import { AppError } from "@verdict/kit";
import type { IdentityDeps } from "../../deps.js";
import { passwordSignInAllowed, planHasSso } from "../../domain/sso.js";
import type { MemberRecord } from "../../repos/memberRepo.js";
import { recordAudit } from "../audit/recordAudit.js";

export interface PasswordSignInQuery {
  membership: MemberRecord;
  clientIp: string;
}

export async function assertPasswordSignInAllowed(
  deps: IdentityDeps,
  { membership, clientIp }: PasswordSignInQuery,
): Promise<void> {
  const connection = await deps.sso.connectionOf(membership.organization_id);
  if (!connection || passwordSignInAllowed(connection.enforce, membership.role)) return;
  // On a plan without SSO the IdP signs nobody in, so it cannot be the only way in either.
  const org = await deps.orgs.find(membership.organization_id);
  if (!org || !planHasSso(org.plan)) return;
  await recordAudit(deps, {
    organizationId: membership.organization_id,
    type: "signin.failed",
    actor: { type: "user", id: membership.user_id, ip: clientIp },
    targetType: "user",
    targetId: membership.user_id,
    data: { reason: "sso_required" },
  });
  const path = connection.type === "oidc" ? "/auth/oidc/authorize" : "/auth/saml/login";
  throw new AppError(
    "forbidden",
    "AUTH_SSO_REQUIRED",
    `Your organization requires single sign-on: sign in through its identity provider (${path}?email=…), not with a password`,
    { sso_type: connection.type, sso_url: path },
  );
}
