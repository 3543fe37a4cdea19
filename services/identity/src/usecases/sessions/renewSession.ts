import type { IdentityDeps } from "../../deps.js";
import type { SessionRecord } from "../../repos/sessionRepo.js";
import type { SessionView } from "./sessionView.js";
import { startSession } from "./startSession.js";

export interface RenewSessionCommand {
  /** The session the person acted in. */
  session: SessionRecord;
  clientIp: string;
  userAgent: string;
}

/**
 * A step up in privilege (a second factor enrolled) ends the session it happened in and starts
 * a fresh one with a fresh token, so a token planted before cannot ride it (session fixation).
 */
export async function renewSession(
  deps: IdentityDeps,
  cmd: RenewSessionCommand,
): Promise<{ token: string; session: SessionView }> {
  const { session } = cmd;
  await deps.sessions.revoke(session.id, deps.clock.now().toISOString());
  return startSession(deps, {
    userId: session.user_id,
    organizationId: session.organization_id,
    clientIp: cmd.clientIp,
    userAgent: cmd.userAgent,
  });
}
