import { AppError } from "@verdict/kit";
import { roleChangeRefusal, roleScopes, scopesWithinRole, type Role } from "../../domain/member.js";
import type { IdentityDeps } from "../../deps.js";
import type { Actor } from "../audit/recordAudit.js";

export interface RoleChange {
  organizationId: string;
  /** The signed-in member (or the member an OAuth token acts for); unset for an API key. */
  actingUserId: string | undefined;
  /** Who acts, for the audit log: an acting API key stands for the person who created it. */
  actor?: Actor;
  current: Role | undefined;
  next: Role | undefined;
}

/**
 * The person a request acts for: the member signed in (or granting the OAuth token), else the
 * person behind the acting API key (its creator, recorded on keys made by a person or by their
 * keys). Undefined when no person stands behind it: the instance operator's key, keys created
 * by person-less keys, SCIM tokens.
 */
export async function actingPerson(
  deps: IdentityDeps,
  organizationId: string,
  actingUserId: string | undefined,
  actor: Actor | undefined,
): Promise<string | undefined> {
  if (actingUserId) return actingUserId;
  if (actor?.type !== "api_key") return undefined;
  const key = await deps.keys.find(organizationId, actor.id);
  return key?.created_by_user_id ?? undefined;
}

/**
 * What a credential granted `granted` may use now, under the one role ceiling: unchanged when no
 * person stands behind it (`personId` unset), within the person's current role when one does,
 * and null when that person is no longer an active member of the organization.
 */
export async function personScopes(
  deps: IdentityDeps,
  organizationId: string,
  personId: string | null | undefined,
  granted: readonly string[],
): Promise<string[] | null> {
  if (!personId) return [...granted];
  const m = await deps.members.find(organizationId, personId);
  return m?.status === "active" ? scopesWithinRole(granted, roleScopes(m.role)) : null;
}

/**
 * Refuses a role change the acting person may not make (an admin touching owners), whether
 * they act signed in, through an OAuth token or through an API key they created. Credentials
 * with no person behind them hold `admin` and pass. Throws 403 AUTH_INSUFFICIENT_ROLE.
 */
export async function assertMayChangeRole(
  deps: IdentityDeps,
  { organizationId, actingUserId, actor, current, next }: RoleChange,
): Promise<void> {
  const personId = await actingPerson(deps, organizationId, actingUserId, actor);
  if (!personId) return;
  const acting = await deps.members.find(organizationId, personId);
  const refusal =
    acting?.status === "active"
      ? roleChangeRefusal(acting.role, current, next)
      : "You are not a member of this organization";
  if (refusal) throw new AppError("forbidden", "AUTH_INSUFFICIENT_ROLE", refusal, { role: acting?.role ?? null });
}
