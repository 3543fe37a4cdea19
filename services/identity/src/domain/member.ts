// Members and roles. Each role is a fixed set of scopes (DESIGN.md, "People and access").
import { hasScope, SCOPES } from "./apiKey.js";

export const ROLES = ["owner", "admin", "member", "viewer"] as const;
export type Role = (typeof ROLES)[number];

const READ_SCOPES = ["read:evaluations", "read:policies", "read:org"];

export function roleScopes(role: Role): string[] {
  switch (role) {
    case "owner":
    case "admin":
      return ["admin"];
    case "member":
      return [...READ_SCOPES, "write:evaluations"];
    case "viewer":
      return [...READ_SCOPES];
  }
}

/**
 * The one role ceiling: what a credential acting for a person (their session, an API key they
 * created, an OAuth token they granted) may use now: its granted scopes within what the
 * person's role holds now, where `admin` stands for every scope on either side (an admin key or
 * grant of someone now a member is worth the member's scopes).
 */
export function scopesWithinRole(granted: readonly string[], role: readonly string[]): string[] {
  const expanded: readonly string[] = granted.includes("admin") ? SCOPES : granted;
  return [...new Set(expanded.filter((s) => hasScope(role, s)))];
}

export function isRole(value: string): value is Role {
  return (ROLES as readonly string[]).includes(value);
}

/** Lowercased and trimmed: one person, one account, however they type their address. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

export const INVITATION_TTL_MS = 7 * 86_400_000;

/**
 * Who may give or take which role. `actorRole` is the acting person's role (signed in, through
 * an OAuth token, or through an API key they created, directly or through their keys), or
 * undefined for a credential with no person behind it (the instance operator's key, keys
 * created by such keys, SCIM tokens), which holds `admin` as documented. Only owners (and those)
 * touch the owner role: an admin can neither make an owner nor demote or remove one. Answers
 * why not, or undefined.
 */
export function roleChangeRefusal(
  actorRole: Role | undefined,
  currentRole: Role | undefined,
  newRole: Role | undefined,
): string | undefined {
  if (actorRole === undefined || actorRole === "owner") return undefined;
  if (actorRole !== "admin") return "Only owners and admins manage members";
  if (newRole === "owner") return "Only an owner can make someone an owner";
  if (currentRole === "owner") return "Only an owner can change or remove an owner";
  return undefined;
}

/** An organization always keeps an owner: the last one can be neither demoted nor removed. */
export function leavesNoOwner(activeOwners: number, currentRole: Role, newRole: Role | undefined): boolean {
  return currentRole === "owner" && newRole !== "owner" && activeOwners <= 1;
}
