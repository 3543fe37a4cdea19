// SCIM v2 service facts (RFC 7643/7644) that hold for every organization: the token format,
// the discovery resources, list responses, ETags and how group names map to Verdict roles.
import { checksummedTokenValid, mintChecksummedToken } from "@verdict/kit";
import type { Role } from "./member.js";
import type { Plan } from "./organization.js";
import { GROUP_SCHEMA, USER_SCHEMA, ENTERPRISE_USER_SCHEMA } from "./scimSchema.js";

export const LIST_RESPONSE_SCHEMA = "urn:ietf:params:scim:api:messages:2.0:ListResponse";

/** SCIM provisioning is on the Business and Enterprise plans (the spec's plan table). */
export const SCIM_PLANS: readonly Plan[] = ["business", "enterprise"];

export function scimAllowed(plan: Plan): boolean {
  return SCIM_PLANS.includes(plan);
}

/** `vdt_scim_<32 random base62><6 base62 CRC-32 of them>`: typos are refused before any lookup. */
const TOKEN_PREFIX = "vdt_scim_";

export function generateScimToken(): string {
  return mintChecksummedToken(TOKEN_PREFIX);
}

export function scimTokenWellFormed(token: string): boolean {
  return checksummedTokenValid(TOKEN_PREFIX, token);
}

export function scimTokenPrefix(token: string): string {
  return token.slice(0, "vdt_scim_".length + 4);
}

/**
 * Group display names that give a role, compared case-insensitively. A person's role is the
 * highest their groups give; in no such group, `member`. The owner role is never given by SCIM:
 * owners are managed in Verdict, so an identity provider cannot take an organization over.
 */
export const GROUP_ROLES: Record<string, Exclude<Role, "owner">> = {
  "verdict-admins": "admin",
  "verdict-members": "member",
  "verdict-viewers": "viewer",
};
export const DEFAULT_SCIM_ROLE: Role = "member";
const RANK: Record<Role, number> = { viewer: 0, member: 1, admin: 2, owner: 3 };

export function roleOfGroup(displayName: string): Exclude<Role, "owner"> | undefined {
  return GROUP_ROLES[displayName.trim().toLowerCase()];
}

/** The role a person's groups give; the default when none of them maps to a role. */
export function roleFromGroups(groupNames: string[]): Role {
  let best: Role | undefined;
  for (const name of groupNames) {
    const r = roleOfGroup(name);
    if (r && (!best || RANK[r] > RANK[best])) best = r;
  }
  return best ?? DEFAULT_SCIM_ROLE;
}

export function etagOf(version: number): string {
  return `W/"${version}"`;
}

/** If-Match holds when absent, `*`, or naming the current version (weak or strong form). */
export function ifMatchHolds(ifMatch: string, version: number): boolean {
  if (!ifMatch.trim()) return true;
  return ifMatch
    .split(",")
    .map((s) => s.trim())
    .some((t) => t === "*" || t.replace(/^W\//, "") === `"${version}"`);
}

export const MAX_RESULTS = 200;
export const DEFAULT_COUNT = 100;

/** startIndex is 1-based (values below 1 count as 1); count below 0 counts as 0 (RFC 7644 §3.4.2.4). */
export function pageOf(startIndex: unknown, count: unknown): { startIndex: number; count: number } {
  const s = Number.parseInt(String(startIndex ?? ""), 10);
  const c = Number.parseInt(String(count ?? ""), 10);
  return {
    startIndex: Number.isFinite(s) && s >= 1 ? s : 1,
    count: Number.isFinite(c) ? Math.min(Math.max(c, 0), MAX_RESULTS) : DEFAULT_COUNT,
  };
}

export function listResponse(
  all: Record<string, unknown>[],
  total: number,
  startIndex: number,
): Record<string, unknown> {
  return {
    schemas: [LIST_RESPONSE_SCHEMA],
    totalResults: total,
    startIndex,
    itemsPerPage: all.length,
    Resources: all,
  };
}

export function serviceProviderConfig(baseUrl: string): Record<string, unknown> {
  return {
    schemas: ["urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig"],
    documentationUri: "https://github.com/verdict/verdict/blob/main/docs/scim.md",
    patch: { supported: true },
    bulk: { supported: false, maxOperations: 0, maxPayloadSize: 0 },
    filter: { supported: true, maxResults: MAX_RESULTS },
    changePassword: { supported: false },
    sort: { supported: false },
    etag: { supported: true },
    authenticationSchemes: [
      {
        type: "oauthbearertoken",
        name: "OAuth Bearer Token",
        description: "A SCIM token (vdt_scim_…) created by an admin with POST /v1/scim-tokens",
        specUri: "https://www.rfc-editor.org/rfc/rfc6750",
        primary: true,
      },
    ],
    meta: { resourceType: "ServiceProviderConfig", location: `${baseUrl}/ServiceProviderConfig` },
  };
}

export function resourceTypes(baseUrl: string): Record<string, unknown>[] {
  return [
    {
      schemas: ["urn:ietf:params:scim:schemas:core:2.0:ResourceType"],
      id: "User",
      name: "User",
      endpoint: "/Users",
      description: "People of the organization",
      schema: USER_SCHEMA,
      schemaExtensions: [{ schema: ENTERPRISE_USER_SCHEMA, required: false }],
      meta: { resourceType: "ResourceType", location: `${baseUrl}/ResourceTypes/User` },
    },
    {
      schemas: ["urn:ietf:params:scim:schemas:core:2.0:ResourceType"],
      id: "Group",
      name: "Group",
      endpoint: "/Groups",
      description: "Groups; their names map to Verdict roles",
      schema: GROUP_SCHEMA,
      schemaExtensions: [],
      meta: { resourceType: "ResourceType", location: `${baseUrl}/ResourceTypes/Group` },
    },
  ];
}
