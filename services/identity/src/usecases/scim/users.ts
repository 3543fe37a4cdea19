// SCIM Users of one organization (RFC 7644 §3.3–3.6). The SCIM id is the Verdict user id, so
// /v1/members and /scim/v2/Users name a person the same way.
import { DuplicateKeyError } from "@verdict/store";
import { newId } from "@verdict/kit";
import { normalizeEmail } from "../../domain/member.js";
import { etagOf } from "../../domain/scim.js";
import { externalIdKey } from "../../domain/scimQuery.js";
import { scimErrors } from "../../domain/scimError.js";
import { applyPatch, patchOperations } from "../../domain/scimPatch.js";
import { normalizeResource, requireAttributes, schemasOf, USER_RESOURCE } from "../../domain/scimSchema.js";
import type { IdentityDeps } from "../../deps.js";
import type { ScimGroupRecord, ScimUserRecord } from "../../repo.js";
import { recordAudit } from "../audit/recordAudit.js";
import { assertMayEndAccess, endAccess, findOrCreateAccount, grantAccess, type ScimCaller } from "./access.js";

type Obj = Record<string, unknown>;

const EMAIL_RE = /^[^@\s]+@[^@\s]+\.[^@\s]+$/;

/**
 * The address the Verdict account is keyed by: the primary email, the first one, or userName
 * when it is an address. None: the SCIM user is kept, without access until one is provisioned.
 */
function accountEmail(resource: Obj): string | undefined {
  const emails = (resource.emails as Obj[] | undefined) ?? [];
  const candidates = [
    emails.find((e) => e.primary === true)?.value,
    ...emails.map((e) => e.value),
    resource.userName,
  ].filter((v): v is string => typeof v === "string" && EMAIL_RE.test(v.trim()));
  return candidates.length ? normalizeEmail(candidates[0]!) : undefined;
}

function displayName(resource: Obj): string {
  const name = resource.name as Obj | undefined;
  const parts = [name?.givenName, name?.familyName].filter((x) => typeof x === "string" && x);
  return String(
    resource.displayName ?? name?.formatted ?? (parts.length ? parts.join(" ") : (resource.userName ?? "")),
  );
}

export function userView(rec: ScimUserRecord, groups: ScimGroupRecord[], baseUrl: string): Obj {
  const resource = JSON.parse(rec.resource_json) as Obj;
  const mine = groups.filter((g) => g.member_ids.includes(rec.scim_id));
  const { externalId, ...attrs } = resource;
  return {
    schemas: schemasOf(USER_RESOURCE, resource),
    id: rec.scim_id,
    ...(externalId !== undefined ? { externalId } : {}),
    ...attrs,
    ...(mine.length
      ? {
          groups: mine.map((g) => ({
            value: g.group_id,
            $ref: `${baseUrl}/Groups/${g.group_id}`,
            display: g.display_name,
            type: "direct",
          })),
        }
      : {}),
    meta: {
      resourceType: "User",
      created: rec.created_at,
      lastModified: rec.updated_at,
      location: `${baseUrl}/Users/${rec.scim_id}`,
      version: etagOf(rec.version),
    },
  };
}

function bodyResource(body: unknown): Obj {
  if (!body || typeof body !== "object" || Array.isArray(body))
    throw scimErrors.invalidSyntax("The body must be a JSON object");
  const resource = normalizeResource(USER_RESOURCE, body as Obj);
  requireAttributes(USER_RESOURCE, resource);
  if (typeof resource.userName !== "string" || !resource.userName.trim())
    throw scimErrors.invalidValue("userName is required");
  return resource;
}

export async function findUser(deps: IdentityDeps, organizationId: string, id: string): Promise<ScimUserRecord> {
  const rec = await deps.repo.scimUsers.findOne({ id: `${organizationId}.${id}`, organization_id: organizationId });
  if (!rec) throw scimErrors.notFound("User", id);
  return rec;
}

async function assertUserNameFree(
  deps: IdentityDeps,
  organizationId: string,
  key: string,
  except?: string,
): Promise<void> {
  const taken = await deps.repo.scimUsers.findOne({ organization_id: organizationId, user_name_key: key });
  if (taken && taken.id !== except) throw scimErrors.uniqueness(`userName is already taken in this organization`);
}

/** The Verdict account for the user's email (made when new); one SCIM user per account and organization. */
async function linkAccount(
  deps: IdentityDeps,
  caller: ScimCaller,
  resource: Obj,
  scimId: string,
): Promise<string | null> {
  const email = accountEmail(resource);
  if (!email) return null;
  const account = await findOrCreateAccount(deps, email, displayName(resource), scimId);
  const other = await deps.repo.scimUsers.findOne({ organization_id: caller.organizationId, user_id: account.id });
  if (other && other.scim_id !== scimId)
    throw scimErrors.uniqueness(`The email address ${email} belongs to another user of this organization`);
  return account.id;
}

export async function createUser(deps: IdentityDeps, caller: ScimCaller, body: unknown): Promise<ScimUserRecord> {
  const resource = bodyResource(body);
  if (resource.active === undefined) resource.active = true;
  const active = resource.active !== false;
  const userNameKey = String(resource.userName).toLowerCase();
  await assertUserNameFree(deps, caller.organizationId, userNameKey);
  const scimId = newId("user");
  const userId = await linkAccount(deps, caller, resource, scimId);
  const now = deps.clock.now().toISOString();
  const rec: ScimUserRecord = {
    id: `${caller.organizationId}.${scimId}`,
    organization_id: caller.organizationId,
    scim_id: scimId,
    user_id: userId,
    user_name_key: userNameKey,
    external_id: externalIdKey(resource),
    active,
    resource_json: JSON.stringify(resource),
    created_at: now,
    updated_at: now,
    version: 1,
  };
  try {
    await deps.repo.scimUsers.insertOne(rec);
  } catch (err) {
    if (err instanceof DuplicateKeyError) throw scimErrors.uniqueness("userName is already taken in this organization");
    throw err;
  }
  if (active) await grantAccess(deps, caller, rec);
  await recordAudit(deps, {
    organizationId: caller.organizationId,
    type: "scim.user_created",
    actor: caller.actor,
    targetType: "user",
    targetId: scimId,
    data: { user_name: resource.userName, active, account_id: userId },
  });
  return rec;
}

/** Stores the new attributes (If-Match checked by the version) and applies what `active` means. */
async function store(
  deps: IdentityDeps,
  caller: ScimCaller,
  rec: ScimUserRecord,
  resource: Obj,
  ifMatchVersion: number,
): Promise<ScimUserRecord> {
  // An unassigned `active` (PATCH remove) means the default: active.
  const active = resource.active !== false;
  const userNameKey = String(resource.userName).toLowerCase();
  if (userNameKey !== rec.user_name_key) await assertUserNameFree(deps, caller.organizationId, userNameKey, rec.id);
  if (rec.active && !active) await assertMayEndAccess(deps, caller, rec);
  const userId = rec.user_id ?? (await linkAccount(deps, caller, resource, rec.scim_id));
  let updated: ScimUserRecord | null;
  try {
    updated = await deps.repo.scimUsers.updateOne(
      { id: rec.id, version: ifMatchVersion },
      {
        user_name_key: userNameKey,
        external_id: externalIdKey(resource),
        user_id: userId,
        active,
        resource_json: JSON.stringify(resource),
        updated_at: deps.clock.now().toISOString(),
        version: ifMatchVersion + 1,
      },
    );
  } catch (err) {
    if (err instanceof DuplicateKeyError) throw scimErrors.uniqueness("userName is already taken in this organization");
    throw err;
  }
  if (!updated) throw scimErrors.preconditionFailed();
  let ended: Obj = {};
  if (rec.active && !active) {
    const e = await endAccess(deps, caller, updated);
    ended = { sessions_ended: e.sessions, oauth_artifacts_revoked: e.oauthArtifacts, api_keys_revoked: e.apiKeys };
  } else if (active && (!rec.active || !rec.user_id)) await grantAccess(deps, caller, updated);
  await recordAudit(deps, {
    organizationId: caller.organizationId,
    type:
      rec.active && !active
        ? "scim.user_deactivated"
        : !rec.active && active
          ? "scim.user_reactivated"
          : "scim.user_updated",
    actor: caller.actor,
    targetType: "user",
    targetId: rec.scim_id,
    data: { user_name: resource.userName, active, ...ended },
  });
  return updated;
}

export async function replaceUser(
  deps: IdentityDeps,
  caller: ScimCaller,
  rec: ScimUserRecord,
  body: unknown,
): Promise<ScimUserRecord> {
  const resource = bodyResource(body);
  return store(deps, caller, rec, resource, rec.version);
}

export async function patchUser(
  deps: IdentityDeps,
  caller: ScimCaller,
  rec: ScimUserRecord,
  body: unknown,
): Promise<ScimUserRecord> {
  const current = JSON.parse(rec.resource_json) as Obj;
  const next = applyPatch(USER_RESOURCE, current, patchOperations(body));
  return store(deps, caller, rec, next, rec.version);
}

export async function deleteUser(deps: IdentityDeps, caller: ScimCaller, rec: ScimUserRecord): Promise<void> {
  if (rec.active) await assertMayEndAccess(deps, caller, rec);
  const ended = rec.active ? await endAccess(deps, caller, rec) : undefined;
  if (!(await deps.repo.scimUsers.deleteOne({ id: rec.id, version: rec.version })))
    throw scimErrors.preconditionFailed();
  // Out of every group too: a user provisioned again later starts without old roles.
  for (const g of await deps.repo.scimGroups.find({ organization_id: caller.organizationId })) {
    if (!g.member_ids.includes(rec.scim_id)) continue;
    await deps.repo.scimGroups.updateOne(
      { id: g.id },
      { member_ids: g.member_ids.filter((m) => m !== rec.scim_id), version: g.version + 1 },
    );
  }
  await recordAudit(deps, {
    organizationId: caller.organizationId,
    type: "scim.user_deleted",
    actor: caller.actor,
    targetType: "user",
    targetId: rec.scim_id,
    data: ended
      ? {
          sessions_ended: ended.sessions,
          oauth_artifacts_revoked: ended.oauthArtifacts,
          api_keys_revoked: ended.apiKeys,
        }
      : {},
  });
}
