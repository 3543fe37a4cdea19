import { AppError, errors } from "@verdict/kit";
import { mayResetFrom, PASSWORD_RESET_TTL_MS } from "../../domain/account.js";
import { hashToken, newToken } from "../../domain/secrets.js";
import type { IdentityDeps } from "../../deps.js";
import { accountStanding } from "../accounts/accountStanding.js";
import { recordAudit, type Actor } from "../audit/recordAudit.js";
import { assertMayChangeRole } from "../members/authority.js";

export interface IssuePasswordResetCommand {
  organizationId: string;
  userId: string;
  actor: Actor;
  /** The issuing member; unset when an API key issues it. */
  issuerUserId?: string;
}

/** Why a link is refused for an account that is not bound to this organization alone. */
export const accountBelongsElsewhere = () =>
  new AppError(
    "forbidden",
    "AUTH_ACCOUNT_NOT_BOUND",
    "This person's account does not belong to this organization alone: only they can change its password (signed in, with the current one)",
  );

/**
 * A single-use password-reset link for a member, answered once (the caller shows it as a URL, as
 * invitation links are; there is no email delivery), working for an hour. Only for an account
 * bound to this organization alone (domain/account.ts), and only owners reset owners.
 */
export async function issuePasswordReset(
  deps: IdentityDeps,
  cmd: IssuePasswordResetCommand,
): Promise<{ token: string; expiresAt: string }> {
  const membership = await deps.members.find(cmd.organizationId, cmd.userId);
  const user = membership?.status === "active" ? await deps.accounts.byId(cmd.userId) : null;
  if (!membership || !user) throw errors.notFound("member", cmd.userId);
  await assertMayChangeRole(deps, {
    organizationId: cmd.organizationId,
    actingUserId: cmd.issuerUserId,
    current: membership.role,
    next: membership.role,
  });
  if (!mayResetFrom(await accountStanding(deps, user), cmd.organizationId)) throw accountBelongsElsewhere();
  const token = newToken("pwr");
  const expiresAt = new Date(deps.clock.now().getTime() + PASSWORD_RESET_TTL_MS).toISOString();
  await deps.accounts.openPasswordReset(user.id, cmd.organizationId, hashToken(token), expiresAt);
  await recordAudit(deps, {
    organizationId: cmd.organizationId,
    type: "password.reset_issued",
    actor: cmd.actor,
    targetType: "user",
    targetId: user.id,
    data: { expires_at: expiresAt },
  });
  return { token, expiresAt };
}
