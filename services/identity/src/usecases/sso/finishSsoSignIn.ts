// The end of every SSO sign-in: the IdP vouched for a person; link them to the organization
// (or refuse), then start an ordinary Verdict session. Audited either way.
import { AppError, newId } from "@verdict/kit";
import { DuplicateKeyError } from "@verdict/store";
import type { IdentityDeps } from "../../deps.js";
import { normalizeEmail } from "../../domain/member.js";
import { decideLink, type SsoIdentity } from "../../domain/sso.js";
import { findOrCreateAccount } from "../accounts/findOrCreateAccount.js";
import { recordAudit } from "../audit/recordAudit.js";
import { startSession } from "../sessions/startSession.js";
import type { SessionView } from "../sessions/sessionView.js";
import { assertSsoPlan } from "./ssoPlan.js";
import type { SsoConnectionRecord } from "../../repos/ssoRepo.js";

export interface FinishSsoSignIn {
  connection: SsoConnectionRecord;
  identity: SsoIdentity;
  clientIp: string;
  userAgent: string;
}

export async function finishSsoSignIn(
  deps: IdentityDeps,
  cmd: FinishSsoSignIn,
): Promise<{ token: string; session: SessionView }> {
  const orgId = cmd.connection.organization_id;
  // Started before the plan changed: the plan decides at the end too.
  await assertSsoPlan(deps, orgId);
  const email = normalizeEmail(cmd.identity.email);
  const identity = { ...cmd.identity, email };
  const existing = await deps.accounts.byEmail(email);
  const membership = existing ? await deps.members.find(orgId, existing.id) : null;
  const verifiedDomains = (await deps.sso.domainsOf(orgId)).filter((d) => d.verified_at).map((d) => d.domain);
  const decision = decideLink({
    identity,
    verifiedDomains,
    defaultRole: cmd.connection.default_role,
    userExists: existing !== null,
    membership: membership ?? undefined,
  });
  const actor = { type: "user" as const, id: existing?.id ?? email, ip: cmd.clientIp };
  if (decision.kind === "refuse") {
    await recordAudit(deps, {
      organizationId: orgId,
      type: "signin.failed",
      actor,
      targetType: "sso_connection",
      targetId: orgId,
      data: { method: cmd.connection.type, reason: decision.code, email },
    });
    throw new AppError("forbidden", decision.code, decision.message, { email });
  }
  const user = await findOrCreateAccount(deps, { email, name: identity.name, id: newId("user"), boundTo: orgId });
  // The organization's IdP vouches for the address in its verified domain: the account is bound
  // to it (an invitation elsewhere can no longer give it a first password).
  await deps.accounts.bindTo(user, orgId);
  if (!user.name && identity.name) await deps.accounts.nameIfNameless(user.id, identity.name);
  const now = deps.clock.now().toISOString();
  if (decision.kind === "activate_invitation" && membership) {
    await deps.members.acceptInvitation(membership);
  } else if (decision.kind === "join") {
    try {
      await deps.members.insert({
        id: deps.members.membershipId(orgId, user.id),
        organization_id: orgId,
        user_id: user.id,
        role: decision.role,
        status: "active",
        invitation_hash: null,
        invitation_expires_at: null,
        created_at: now,
        version: 1,
      });
    } catch (err) {
      if (!(err instanceof DuplicateKeyError)) throw err;
    }
  }
  if (decision.kind !== "sign_in") {
    const joined = await deps.members.find(orgId, user.id);
    await recordAudit(deps, {
      organizationId: orgId,
      type: "member.joined",
      actor: { ...actor, id: user.id },
      targetType: "user",
      targetId: user.id,
      data: { role: joined?.role, new_account: !existing, via: `sso_${cmd.connection.type}` },
    });
  }
  const started = await startSession(deps, {
    userId: user.id,
    organizationId: orgId,
    clientIp: cmd.clientIp,
    userAgent: cmd.userAgent,
    idpMfa: identity.mfa,
  });
  await recordAudit(deps, {
    organizationId: orgId,
    type: "signin.succeeded",
    actor: { ...actor, id: user.id },
    targetType: "session",
    targetId: started.session.id,
    data: { method: `sso_${cmd.connection.type}`, mfa: identity.mfa ? "idp" : "none", subject: identity.subject },
  });
  return started;
}
