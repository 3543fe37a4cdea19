import { errors, newId } from "@verdict/kit";
import { hashToken, newToken } from "../../domain/secrets.js";
import type { IdentityDeps } from "../../deps.js";
import type { SessionRecord } from "../../repos/sessionRepo.js";
import { sessionView, type SessionView } from "./sessionView.js";

export interface SessionStart {
  userId: string;
  organizationId: string;
  clientIp: string;
  userAgent: string;
  /** An SSO sign-in whose IdP said it used more than one factor (amr): counts as MFA. */
  idpMfa?: boolean;
}

/**
 * A fresh session with a fresh token: every sign-in and every step up in privilege (second
 * factor given, MFA enrolled) gets a new one, so a token planted before cannot be ridden
 * (session fixation).
 */
export async function startSession(
  deps: IdentityDeps,
  start: SessionStart,
): Promise<{ token: string; session: SessionView }> {
  const now = deps.clock.now();
  const token = newToken("ses");
  const record: SessionRecord = {
    id: newId("ses"),
    hash: hashToken(token),
    user_id: start.userId,
    organization_id: start.organizationId,
    state: "active",
    created_at: now.toISOString(),
    last_seen_at: now.toISOString(),
    expires_at: new Date(now.getTime() + deps.sessionPolicy.absoluteMs).toISOString(),
    revoked_at: null,
    ip: start.clientIp,
    user_agent: start.userAgent.slice(0, 500),
    ...(start.idpMfa ? { idp_mfa: true } : {}),
  };
  await deps.sessions.insert(record);
  const [user, org, membership] = await Promise.all([
    deps.accounts.byId(start.userId),
    deps.orgs.find(start.organizationId),
    deps.members.find(start.organizationId, start.userId),
  ]);
  if (!user || !org || membership?.status !== "active") throw errors.internal("The signed-in member vanished");
  return { token, session: sessionView(record, user, org, membership.role, deps.sessionPolicy) };
}
