// What SCIM Groups of one organization share: the resource a request sends, its members, the
// part of it that is stored, and the view the API answers. A group's displayName decides the
// Verdict role of its members (domain/scim.ts GROUP_ROLES).
import { etagOf } from "../../domain/scim.js";
import { scimErrors } from "../../domain/scimError.js";
import { GROUP_RESOURCE, normalizeResource, requireAttributes, schemasOf } from "../../domain/scimSchema.js";
import type { IdentityDeps } from "../../deps.js";
import type { ScimGroupRecord, ScimUserRecord } from "../../repos/scimRepo.js";

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

export interface MemberIdsQuery {
  organizationId: string;
  resource: Obj;
}

/** The member ids a resource names, each a SCIM user of this organization (else 400 invalidValue). */
export async function memberIds(deps: IdentityDeps, { organizationId, resource }: MemberIdsQuery): Promise<string[]> {
  const members = (resource.members as Obj[] | undefined) ?? [];
  const ids = [...new Set(members.map((m) => m.value).filter((v): v is string => typeof v === "string"))];
  for (const id of ids) {
    const u = await deps.scim.user(organizationId, id);
    if (!u) throw scimErrors.invalidValue(`members: no user ${id} in this organization`);
  }
  return ids;
}

export function groupBody(body: unknown): Obj {
  if (!body || typeof body !== "object" || Array.isArray(body))
    throw scimErrors.invalidSyntax("The body must be a JSON object");
  const resource = normalizeResource(GROUP_RESOURCE, body as Obj);
  requireAttributes(GROUP_RESOURCE, resource);
  return resource;
}

export function storedPart(resource: Obj): string {
  const { displayName: _d, ...rest } = resource;
  const members = ((rest.members as Obj[] | undefined) ?? []).map(({ $ref: _r, ...m }) => m);
  const seen = new Set<string>();
  return JSON.stringify({
    ...rest,
    members: members.filter((m) => !seen.has(String(m.value)) && seen.add(String(m.value))),
  });
}

/** The group's current attributes, as a patch applies to them. */
export function currentAttributes(rec: ScimGroupRecord): Obj {
  return {
    ...(JSON.parse(rec.resource_json) as Obj),
    displayName: rec.display_name,
  };
}
