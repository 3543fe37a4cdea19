import { hashToken } from "../../domain/secrets.js";
import type { IdentityDeps } from "../../deps.js";
import { recordAudit } from "../audit/recordAudit.js";
import { SESSION_TOKEN_RE } from "./verifySession.js";

export interface LogoutCommand {
  token: string;
  clientIp: string;
}

/** Ends the session (idempotent: an unknown or ended one is already signed out). */
export async function logout(deps: IdentityDeps, { token, clientIp }: LogoutCommand): Promise<void> {
  if (!SESSION_TOKEN_RE.test(token)) return;
  const s = await deps.sessions.byHash(hashToken(token));
  if (!s || s.revoked_at) return;
  const ended = await deps.sessions.revoke(s.id, deps.clock.now().toISOString());
  if (ended)
    await recordAudit(deps, {
      organizationId: s.organization_id,
      type: "signout",
      actor: { type: "user", id: s.user_id, ip: clientIp },
      targetType: "session",
      targetId: s.id,
    });
}
