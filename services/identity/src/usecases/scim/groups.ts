// SCIM Groups of one organization. A group's displayName decides the Verdict role of its
// members (domain/scim.ts GROUP_ROLES); every change re-derives the roles of the people it touches.
import { newId } from "@verdict/kit";
import { etagOf } from "../../domain/scim.js";
import { externalIdKey } from "../../domain/scimQuery.js";
import { scimErrors } from "../../domain/scimError.js";
import { applyPatch, patchOperations } from "../../domain/scimPatch.js";
import { GROUP_RESOURCE, normalizeResource, requireAttributes, schemasOf } from "../../domain/scimSchema.js";
import type { IdentityDeps } from "../../deps.js";
import type { ScimGroupRecord, ScimUserRecord } from "../../repo.js";
import { recordAudit } from "../audit/recordAudit.js";
import { syncRoles, type ScimCaller } from "./access.js";

type Obj = Record<string, unknown>;

export function groupView(rec: ScimGroupRecord, users: Map<string, ScimUserRecord>, baseUrl: string): Obj {
  const stored = JSON.parse(rec.resource_json) as Obj;
  return {
    schemas: schemasOf(GROUP_RESOURCE, stored),
    id: rec.group_id,
    ...(stored.externalId !== undefined ? { externalId: stored.externalId } : {}),
    displayName: rec.display_name,
    // As the identity provider sent them (display and type included), each with its URI.
    members: ((stored.members as Obj[] | undefined) ?? rec.member_ids.map((value) => ({ value })))
      .filter((m) => users.has(String(m.value)))
      .map((m) => ({ ...m, $ref: `${baseUrl}/Users/${String(m.value)}` })),
    meta: {
      resourceType: "Group",
      created: rec.created_at,
      lastModified: rec.updated_at,
      location: `${baseUrl}/Groups/${rec.group_id}`,
      version: etagOf(rec.version),
    },
  };
}

/** The member ids a resource names, each a SCIM user of this organization (else 400 invalidValue). */
async function memberIds(deps: IdentityDeps, organizationId: string, resource: Obj): Promise<string[]> {
  const members = (resource.members as Obj[] | undefined) ?? [];
  const ids = [...new Set(members.map((m) => m.value).filter((v): v is string => typeof v === "string"))];
  for (const id of ids) {
    const u = await deps.repo.scimUsers.findOne({ id: `${organizationId}.${id}` });
    if (!u) throw scimErrors.invalidValue(`members: no user ${id} in this organization`);
  }
  return ids;
}

function bodyResource(body: unknown): Obj {
  if (!body || typeof body !== "object" || Array.isArray(body))
    throw scimErrors.invalidSyntax("The body must be a JSON object");
  const resource = normalizeResource(GROUP_RESOURCE, body as Obj);
  requireAttributes(GROUP_RESOURCE, resource);
  return resource;
}

function storedPart(resource: Obj): string {
  const { displayName: _d, ...rest } = resource;
  const members = ((rest.members as Obj[] | undefined) ?? []).map(({ $ref: _r, ...m }) => m);
  const seen = new Set<string>();
  return JSON.stringify({
    ...rest,
    members: members.filter((m) => !seen.has(String(m.value)) && seen.add(String(m.value))),
  });
}

export async function findGroup(deps: IdentityDeps, organizationId: string, id: string): Promise<ScimGroupRecord> {
  const rec = await deps.repo.scimGroups.findOne({ id: `${organizationId}.${id}`, organization_id: organizationId });
  if (!rec) throw scimErrors.notFound("Group", id);
  return rec;
}

export async function createGroup(deps: IdentityDeps, caller: ScimCaller, body: unknown): Promise<ScimGroupRecord> {
  const resource = bodyResource(body);
  const members = await memberIds(deps, caller.organizationId, resource);
  const groupId = newId("grp");
  const now = deps.clock.now().toISOString();
  const rec: ScimGroupRecord = {
    id: `${caller.organizationId}.${groupId}`,
    organization_id: caller.organizationId,
    group_id: groupId,
    display_name: String(resource.displayName),
    display_name_key: String(resource.displayName).toLowerCase(),
    external_id: externalIdKey(resource),
    member_ids: members,
    resource_json: storedPart(resource),
    created_at: now,
    updated_at: now,
    version: 1,
  };
  await deps.repo.scimGroups.insertOne(rec);
  await syncRoles(deps, caller, members);
  await recordAudit(deps, {
    organizationId: caller.organizationId,
    type: "scim.group_created",
    actor: caller.actor,
    targetType: "scim_group",
    targetId: groupId,
    data: { display_name: rec.display_name, members: members.length },
  });
  return rec;
}

async function store(
  deps: IdentityDeps,
  caller: ScimCaller,
  rec: ScimGroupRecord,
  resource: Obj,
): Promise<ScimGroupRecord> {
  const members = await memberIds(deps, caller.organizationId, resource);
  const updated = await deps.repo.scimGroups.updateOne(
    { id: rec.id, version: rec.version },
    {
      display_name: String(resource.displayName),
      display_name_key: String(resource.displayName).toLowerCase(),
      external_id: externalIdKey(resource),
      member_ids: members,
      resource_json: storedPart(resource),
      updated_at: deps.clock.now().toISOString(),
      version: rec.version + 1,
    },
  );
  if (!updated) throw scimErrors.preconditionFailed();
  await syncRoles(deps, caller, [...rec.member_ids, ...members]);
  await recordAudit(deps, {
    organizationId: caller.organizationId,
    type: "scim.group_updated",
    actor: caller.actor,
    targetType: "scim_group",
    targetId: rec.group_id,
    data: {
      display_name: updated.display_name,
      added: members.filter((m) => !rec.member_ids.includes(m)).length,
      removed: rec.member_ids.filter((m) => !members.includes(m)).length,
    },
  });
  return updated;
}

function current(rec: ScimGroupRecord): Obj {
  return {
    ...(JSON.parse(rec.resource_json) as Obj),
    displayName: rec.display_name,
  };
}

export async function replaceGroup(deps: IdentityDeps, caller: ScimCaller, rec: ScimGroupRecord, body: unknown) {
  return store(deps, caller, rec, bodyResource(body));
}

export async function patchGroup(deps: IdentityDeps, caller: ScimCaller, rec: ScimGroupRecord, body: unknown) {
  return store(deps, caller, rec, applyPatch(GROUP_RESOURCE, current(rec), patchOperations(body)));
}

export async function deleteGroup(deps: IdentityDeps, caller: ScimCaller, rec: ScimGroupRecord): Promise<void> {
  if (!(await deps.repo.scimGroups.deleteOne({ id: rec.id, version: rec.version })))
    throw scimErrors.preconditionFailed();
  await syncRoles(deps, caller, rec.member_ids);
  await recordAudit(deps, {
    organizationId: caller.organizationId,
    type: "scim.group_deleted",
    actor: caller.actor,
    targetType: "scim_group",
    targetId: rec.group_id,
    data: { display_name: rec.display_name },
  });
}
