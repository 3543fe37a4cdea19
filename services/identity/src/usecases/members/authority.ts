import { AppError } from "@verdict/kit";
import { roleChangeRefusal, type Role } from "../../domain/member.js";
import type { IdentityDeps } from "../../deps.js";

export interface RoleChange {
  organizationId: string;
  actingUserId: string | undefined;
  current: Role | undefined;
  next: Role | undefined;
}

/**
 * Refuses a role change the acting member may not make (an admin touching owners). Acting API
 * keys (no user) hold `admin` and pass. Throws 403 AUTH_INSUFFICIENT_ROLE.
 */
export async function assertMayChangeRole(
  deps: IdentityDeps,
  { organizationId, actingUserId, current, next }: RoleChange,
): Promise<void> {
  if (!actingUserId) return;
  const acting = await deps.repo.membership(organizationId, actingUserId);
  const refusal =
    acting?.status === "active"
      ? roleChangeRefusal(acting.role, current, next)
      : "You are not a member of this organization";
  if (refusal) throw new AppError("forbidden", "AUTH_INSUFFICIENT_ROLE", refusal, { role: acting?.role ?? null });
}
