import { AppError } from "@verdict/kit";
import { hashToken } from "../../domain/secrets.js";
import { LAST_SEEN_GRANULARITY_MS, sessionEnded } from "../../domain/session.js";
import type { IdentityDeps } from "../../deps.js";
import type { SessionRecord } from "../../repos/sessionRepo.js";
import { sessionView, type SessionView } from "./sessionView.js";

export const invalidSession = () =>
  new AppError(
    "unauthorized",
    "AUTH_INVALID_SESSION",
    "The session is not valid (signed out, revoked or unknown): sign in again",
  );
export const SESSION_TOKEN_RE = /^vdt_ses_[0-9A-Za-z]{43}$/;

/** The live session a token names, or 401; ended sessions answer AUTH_SESSION_EXPIRED. */
export async function activeSession(deps: IdentityDeps, token: string): Promise<SessionRecord> {
  if (!SESSION_TOKEN_RE.test(token)) throw invalidSession();
  const s = await deps.sessions.byHash(hashToken(token));
  if (!s || s.revoked_at || s.state !== "active") throw invalidSession();
  if (sessionEnded(s, deps.clock.now(), deps.sessionPolicy))
    throw new AppError("unauthorized", "AUTH_SESSION_EXPIRED", "The session timed out: sign in again");
  return s;
}

export interface VerifySessionCommand {
  token: string;
}

/** Who is signed in. The role is read on every call, so a role change applies at once. */
export async function verifySession(deps: IdentityDeps, { token }: VerifySessionCommand): Promise<SessionView> {
  const s = await activeSession(deps, token);
  const [user, org, membership] = await Promise.all([
    deps.accounts.byId(s.user_id),
    deps.orgs.find(s.organization_id),
    deps.members.find(s.organization_id, s.user_id),
  ]);
  if (!user || !org || membership?.status !== "active") throw invalidSession();
  const now = deps.clock.now();
  let current = s;
  if (now.getTime() - Date.parse(s.last_seen_at) > LAST_SEEN_GRANULARITY_MS) {
    current = (await deps.sessions.touch(s.id, now.toISOString())) ?? s;
  }
  return sessionView(current, user, org, membership.role, deps.sessionPolicy);
}
