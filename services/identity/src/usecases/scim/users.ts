// SCIM Users of one organization (RFC 7644 §3.3–3.6). The SCIM id is the Verdict user id, so
// /v1/members and /scim/v2/Users name a person the same way.
import { DuplicateKeyError } from "@verdict/store";
import { normalizeEmail } from "../../domain/member.js";
import { etagOf } from "../../domain/scim.js";
import { scimErrors } from "../../domain/scimError.js";
import { applyPatch, patchOperations } from "../../domain/scimPatch.js";
import { normalizeResource, requireAttributes, schemasOf, USER_RESOURCE } from "../../domain/scimSchema.js";
import type { IdentityDeps } from "../../deps.js";
import type { ScimGroupRecord, ScimUserRecord } from "../../repo.js";
import { recordAudit } from "../audit/recordAudit.js";
import { endAccess, findOrCreateAccount, grantAccess, type ScimCaller } from "./access.js";

type Obj = Record<string, unknown>;

const EMAIL_RE = /^[^@\s]+@[^@\s]+\.[^@\s]+$/;

/** The address the Verdict account is keyed by: the primary email, the first one, or userName. */
function accountEmail(resource: Obj): string {
  const emails = (resource.emails as Obj[] | undefined) ?? [];
  const candidates = [
    emails.find((e) => e.primary === true)?.value,
    ...emails.map((e) => e.value),
    resource.userName,
  ].filter((v): v is string => typeof v === "string" && EMAIL_RE.test(v.trim()));
  if (!candidates.length)
    throw scimErrors.invalidValue("A user needs an email address: in emails, or as a userName that is one");
  return normalizeEmail(candidates[0]!);
}

function displayName(resource: Obj): string {
  const name = resource.name as Obj | undefined;
  const parts = [name?.givenName, name?.familyName].filter((x) => typeof x === "string" && x);
  return String(resource.displayName ?? name?.formatted ?? (parts.length ? parts.join(" ") : resource.userName ?? ""));
}

export function userView(rec: ScimUserRecord, groups: ScimGroupRecord[], baseUrl: string): Obj {
  const resource = JSON.parse(rec.resource_json) as Obj;
  const mine = groups.filter((g) => g.member_ids.includes(rec.user_id));
  const { externalId, ...attrs } = resource;
  return {
    schemas: schemasOf(USER_RESOURCE, resource),
    id: rec.user_id,
    ...(externalId !== undefined ? { externalId } : {}),
    ...attrs,
    active: rec.active,
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
      location: `${baseUrl}/Users/${rec.user_id}`,
      version: etagOf(rec.version),
    },
  };
}

function bodyResource(body: unknown): Obj {
  if (!body || typeof body !== "object" || Array.isArray(body)) throw scimErrors.invalidSyntax("The body must be a JSON object");
  const resource = normalizeResource(USER_RESOURCE, body as Obj);
  requireAttributes(USER_RESOURCE, resource);
  if (typeof resource.userName !== "string" || !resource.userName.trim()) throw scimErrors.invalidValue("userName is required");
  return resource;
}

export async function findUser(deps: IdentityDeps, organizationId: string, id: string): Promise<ScimUserRecord> {
  const rec = await deps.repo.scimUsers.findOne({ id: deps.repo.membershipId(organizationId, id), organization_id: organizationId });
  if (!rec) throw scimErrors.notFound("User", id);
  return rec;
}

async function assertUserNameFree(deps: IdentityDeps, organizationId: string, key: string, except?: string): Promise<void> {
  const taken = await deps.repo.scimUsers.findOne({ organization_id: organizationId, user_name_key: key });
  if (taken && taken.id !== except) throw scimErrors.uniqueness(`userName is already taken in this organization`);
}

export async function createUser(deps: IdentityDeps, caller: ScimCaller, body: unknown): Promise<ScimUserRecord> {
  const resource = bodyResource(body);
  const active = resource.active !== false;
  delete resource.active;
  const userNameKey = String(resource.userName).toLowerCase();
  await assertUserNameFree(deps, caller.organizationId, userNameKey);
  const account = await findOrCreateAccount(deps, accountEmail(resource), displayName(resource));
  const now = deps.clock.now().toISOString();
  const rec: ScimUserRecord = {
    id: deps.repo.membershipId(caller.organizationId, account.id),
    organization_id: caller.organizationId,
    user_id: account.id,
    user_name_key: userNameKey,
    active,
    resource_json: JSON.stringify(resource),
    created_at: now,
    updated_at: now,
    version: 1,
  };
  try {
    await deps.repo.scimUsers.insertOne(rec);
  } catch (err) {
    if (err instanceof DuplicateKeyError)
      throw scimErrors.uniqueness("A user with this userName or email is already provisioned in this organization");
    throw err;
  }
  if (active) await grantAccess(deps, caller, account.id);
  await recordAudit(deps, {
    organizationId: caller.organizationId,
    type: "scim.user_created",
    actor: caller.actor,
    targetType: "user",
    targetId: account.id,
    data: { user_name: resource.userName, active },
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
  const active = resource.active === undefined ? rec.active : resource.active !== false;
  delete resource.active;
  const userNameKey = String(resource.userName).toLowerCase();
  if (userNameKey !== rec.user_name_key) await assertUserNameFree(deps, caller.organizationId, userNameKey, rec.id);
  let updated: ScimUserRecord | null;
  try {
    updated = await deps.repo.scimUsers.updateOne(
      { id: rec.id, version: ifMatchVersion },
      {
        user_name_key: userNameKey,
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
    const e = await endAccess(deps, caller, rec.user_id);
    ended = { sessions_ended: e.sessions, oauth_artifacts_revoked: e.oauthArtifacts, api_keys_revoked: e.apiKeys };
  } else if (!rec.active && active) await grantAccess(deps, caller, rec.user_id);
  await recordAudit(deps, {
    organizationId: caller.organizationId,
    type: rec.active && !active ? "scim.user_deactivated" : !rec.active && active ? "scim.user_reactivated" : "scim.user_updated",
    actor: caller.actor,
    targetType: "user",
    targetId: rec.user_id,
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
  if (resource.active === undefined) resource.active = true;
  return store(deps, caller, rec, resource, rec.version);
}

export async function patchUser(
  deps: IdentityDeps,
  caller: ScimCaller,
  rec: ScimUserRecord,
  body: unknown,
): Promise<ScimUserRecord> {
  const current = { ...(JSON.parse(rec.resource_json) as Obj), active: rec.active };
  const next = applyPatch(USER_RESOURCE, current, patchOperations(body));
  return store(deps, caller, rec, next, rec.version);
}

export async function deleteUser(deps: IdentityDeps, caller: ScimCaller, rec: ScimUserRecord): Promise<void> {
  const ended = rec.active ? await endAccess(deps, caller, rec.user_id) : undefined;
  if (!(await deps.repo.scimUsers.deleteOne({ id: rec.id, version: rec.version }))) throw scimErrors.preconditionFailed();
  // Out of every group too: a user provisioned again later starts without old roles.
  for (const g of await deps.repo.scimGroups.find({ organization_id: caller.organizationId })) {
    if (!g.member_ids.includes(rec.user_id)) continue;
    await deps.repo.scimGroups.updateOne(
      { id: g.id },
      { member_ids: g.member_ids.filter((m) => m !== rec.user_id), version: g.version + 1 },
    );
  }
  await recordAudit(deps, {
    organizationId: caller.organizationId,
    type: "scim.user_deleted",
    actor: caller.actor,
    targetType: "user",
    targetId: rec.user_id,
    data: ended
      ? { sessions_ended: ended.sessions, oauth_artifacts_revoked: ended.oauthArtifacts, api_keys_revoked: ended.apiKeys }
      : {},
  });
}
