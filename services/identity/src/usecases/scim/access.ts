// What SCIM changes mean for a person's access to the organization: a membership while the
// SCIM user is active (and has an email to link an account by), with the role their groups
// give; deactivation or deletion ends it and everything that acts for them at once (sessions,
// OAuth tokens, the API keys they created).
import { DuplicateKeyError } from "@verdict/store";
import { leavesNoOwner, type Role } from "../../domain/member.js";
import { roleFromGroups } from "../../domain/scim.js";
import { scimErrors } from "../../domain/scimError.js";
import type { IdentityDeps } from "../../deps.js";
import type { MemberRecord } from "../../repos/memberRepo.js";
import type { ScimUserRecord } from "../../repos/scimRepo.js";
import { announceCreatorRoleChanged, revokeKeysCreatedBy } from "../apiKeys/keysOfPerson.js";
import { recordAudit, type Actor } from "../audit/recordAudit.js";

export interface ScimCaller {
  organizationId: string;
  tokenId: string;
  actor: Actor;
  baseUrl: string;
}

async function groupRole(deps: IdentityDeps, organizationId: string, scimId: string): Promise<Role> {
  const groups = await deps.scim.groupsOf(organizationId);
  return roleFromGroups(groups.filter((g) => g.member_ids.includes(scimId)).map((g) => g.display_name));
}

export interface ScimAccessCommand {
  caller: ScimCaller;
  rec: ScimUserRecord;
}

/** Gives (or restores) the linked account an active membership with the role its groups give; owners keep theirs. */
export async function grantAccess(deps: IdentityDeps, { caller, rec }: ScimAccessCommand): Promise<void> {
  if (!rec.user_id) return;
  const userId = rec.user_id;
  const role = await groupRole(deps, caller.organizationId, rec.scim_id);
  const existing = await deps.members.find(caller.organizationId, userId);
  if (!existing) {
    const record: MemberRecord = {
      id: deps.members.membershipId(caller.organizationId, userId),
      organization_id: caller.organizationId,
      user_id: userId,
      role,
      status: "active",
      invitation_hash: null,
      invitation_expires_at: null,
      created_at: deps.clock.now().toISOString(),
      version: 1,
    };
    try {
      await deps.members.insert(record);
    } catch (err) {
      if (!(err instanceof DuplicateKeyError)) throw err;
      return grantAccess(deps, { caller, rec });
    }
    await recordAudit(deps, {
      organizationId: caller.organizationId,
      type: "member.joined",
      actor: caller.actor,
      targetType: "user",
      targetId: userId,
      data: { role, via: "scim" },
    });
    return;
  }
  const newRole = existing.role === "owner" ? "owner" : role;
  if (existing.status === "active" && existing.role === newRole) return;
  const updated = await deps.members.activate(existing, newRole);
  if (!updated) return grantAccess(deps, { caller, rec });
  if (existing.status === "active")
    await announceCreatorRoleChanged(deps, { organizationId: caller.organizationId, userId });
  await recordAudit(deps, {
    organizationId: caller.organizationId,
    type: existing.status === "active" ? "member.role_changed" : "member.joined",
    actor: caller.actor,
    targetType: "user",
    targetId: userId,
    data: { role: newRole, previous_role: existing.role, via: "scim" },
  });
}

export interface SyncRolesCommand {
  caller: ScimCaller;
  scimIds: Iterable<string>;
}

/** Puts each active SCIM user's role in line with their groups (after a group changed). */
export async function syncRoles(deps: IdentityDeps, { caller, scimIds }: SyncRolesCommand): Promise<void> {
  for (const scimId of new Set(scimIds)) {
    const rec = await deps.scim.user(caller.organizationId, scimId);
    if (rec?.active) await grantAccess(deps, { caller, rec });
  }
}

/** Refuses to take the organization's last owner away (owners are managed in Verdict). */
export async function assertMayEndAccess(deps: IdentityDeps, { caller, rec }: ScimAccessCommand): Promise<void> {
  if (!rec.user_id) return;
  const membership = await deps.members.find(caller.organizationId, rec.user_id);
  if (
    membership?.status === "active" &&
    leavesNoOwner(await deps.members.activeOwnersCount(caller.organizationId), membership.role, undefined)
  )
    throw scimErrors.mutability("This is the organization's last owner: make someone else owner in Verdict first");
}

/**
 * Ends the person's access at once: the membership goes, and with it every session here, every
 * OAuth grant acting for them here, and every API key they created here (revoked through the
 * same path as DELETE /v1/api-keys, so gateways drop cached verifications).
 */
export async function endAccess(
  deps: IdentityDeps,
  { caller, rec }: ScimAccessCommand,
): Promise<{ sessions: number; oauthArtifacts: number; apiKeys: number }> {
  if (!rec.user_id) return { sessions: 0, oauthArtifacts: 0, apiKeys: 0 };
  const userId = rec.user_id;
  await deps.members.end(caller.organizationId, userId);
  const now = deps.clock.now().toISOString();
  const sessions = await deps.sessions.revokeSessionsOf(userId, caller.organizationId, now);
  const oauthArtifacts = await deps.oauth.revokeArtifactsOf(deps.members.membershipId(caller.organizationId, userId));
  const apiKeys = await revokeKeysCreatedBy(deps, {
    organizationId: caller.organizationId,
    userId,
    actor: caller.actor,
  });
  return { sessions, oauthArtifacts, apiKeys };
}
