// The account-binding rule (docs/people.md, "Accounts and organizations"). There is no email
// delivery in Verdict: an invitation or reset link reaches whoever its issuer hands it to, so a
// link proves nothing about who controls an address. An account is therefore bound to the
// organizations that made it or vouch for it (SCIM provisioning, an SSO sign-in, a membership
// its owner took up), and only proof of control of the account itself — being signed in as it,
// or a password it already has — lets it join another organization. Pure: use cases gather the
// facts.

/** What is known about an account, across organizations. */
export interface AccountStanding {
  hasPassword: boolean;
  /** Organizations whose identity provider made or linked the account (SCIM, SSO). */
  idpOrganizationIds: string[];
  /** Organizations where the account is an active member. */
  activeOrganizationIds: string[];
}

/**
 * How the person redeeming an invitation proves the account is theirs:
 * - `new_password`: a brand-new account nobody controls yet (made by an invitation, never
 *   provisioned, never a member anywhere) chooses its first password;
 * - `password`: the account's own password (or being signed in as it);
 * - `session`: being signed in as it (an account without a password signs in through its
 *   organization's single sign-on first).
 */
export type JoinProof = "new_password" | "password" | "session";

export function joinProof(a: AccountStanding): JoinProof {
  if (a.hasPassword) return "password";
  if (a.idpOrganizationIds.length === 0 && a.activeOrganizationIds.length === 0) return "new_password";
  return "session";
}

/** The organizations other than `organizationId` that the account belongs to (active or IdP-bound). */
export function otherOrganizations(a: AccountStanding, organizationId: string): string[] {
  return [...new Set([...a.idpOrganizationIds, ...a.activeOrganizationIds])].filter((o) => o !== organizationId);
}

/**
 * Whether an organization's identity provider (a SCIM token) may link the account without the
 * person's consent: only one that is new, or that nobody but this organization controls.
 */
export function mayProvisionWithoutConsent(a: AccountStanding, organizationId: string): boolean {
  if (a.activeOrganizationIds.includes(organizationId)) return true;
  return !a.hasPassword && otherOrganizations(a, organizationId).length === 0;
}

/**
 * Whether an admin of `organizationId` may issue a password-reset link for the account: only
 * one bound to that organization alone. A link for an account that also belongs elsewhere would
 * let one tenant's admin sign in as another tenant's member.
 */
export function mayResetFrom(a: AccountStanding, organizationId: string): boolean {
  return a.activeOrganizationIds.includes(organizationId) && otherOrganizations(a, organizationId).length === 0;
}

/** How long a password-reset link works (it works once). */
export const PASSWORD_RESET_TTL_MS = 60 * 60_000;
