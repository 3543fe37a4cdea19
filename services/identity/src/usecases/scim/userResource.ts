// What SCIM Users of one organization (RFC 7644 §3.3–3.6) share: the resource a request sends,
// the view the API answers, the userName rule and the link to a Verdict account. The SCIM id is
// the Verdict user id, so /v1/members and /scim/v2/Users name a person the same way.
import { normalizeEmail } from "../../domain/member.js";
import { etagOf } from "../../domain/scim.js";
import { scimErrors } from "../../domain/scimError.js";
import { normalizeResource, requireAttributes, schemasOf, USER_RESOURCE } from "../../domain/scimSchema.js";
import type { IdentityDeps } from "../../deps.js";
import type { ScimGroupRecord, ScimUserRecord } from "../../repos/scimRepo.js";
import { mayProvisionWithoutConsent } from "../../domain/account.js";
import { accountStanding } from "../accounts/accountStanding.js";
import { findOrCreateAccount } from "../accounts/findOrCreateAccount.js";
import type { ScimCaller } from "./access.js";

export type Obj = Record<string, unknown>;
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

export function userBody(body: unknown): Obj {
  if (!body || typeof body !== "object" || Array.isArray(body))
    throw scimErrors.invalidSyntax("The body must be a JSON object");
  const resource = normalizeResource(USER_RESOURCE, body as Obj);
  requireAttributes(USER_RESOURCE, resource);
  if (typeof resource.userName !== "string" || !resource.userName.trim())
    throw scimErrors.invalidValue("userName is required");
  return resource;
}

export interface UserNameQuery {
  organizationId: string;
  key: string;
  except?: string;
}

/** 409 uniqueness when another of the organization's users has this userName (lower-cased). */
export async function assertUserNameFree(
  deps: IdentityDeps,
  { organizationId, key, except }: UserNameQuery,
): Promise<void> {
  const taken = await deps.scim.userByName(organizationId, key);
  if (taken && taken.id !== except) throw scimErrors.uniqueness(`userName is already taken in this organization`);
}

export interface LinkAccountCommand {
  caller: ScimCaller;
  resource: Obj;
  scimId: string;
}

/**
 * The Verdict account for the user's email (made when new, bound to this organization); one SCIM
 * user per account and organization. An account that belongs to someone elsewhere (it has a
 * password, or another organization's membership or identity provider) is not linked without
 * that person's consent: null then, and the SCIM user is kept without access until the person
 * joins through an invitation they accept themselves (docs/scim.md).
 */
export async function linkAccount(
  deps: IdentityDeps,
  { caller, resource, scimId }: LinkAccountCommand,
): Promise<string | null> {
  const email = accountEmail(resource);
  if (!email) return null;
  const account = await findOrCreateAccount(deps, {
    email,
    name: displayName(resource),
    id: scimId,
    boundTo: caller.organizationId,
  });
  const other = await deps.scim.userOfAccount(caller.organizationId, account.id);
  if (other && other.scim_id !== scimId)
    throw scimErrors.uniqueness(`The email address ${email} belongs to another user of this organization`);
  if (!mayProvisionWithoutConsent(await accountStanding(deps, account), caller.organizationId)) return null;
  await deps.accounts.bindTo(account, caller.organizationId);
  return account.id;
}
