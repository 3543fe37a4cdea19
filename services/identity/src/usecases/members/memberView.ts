import type { Role } from "../../domain/member.js";
import { hasSecondFactor } from "../../domain/mfa.js";
import type { MemberRecord } from "../../repos/memberRepo.js";
import type { UserRecord } from "../../repos/accountRepo.js";

/** What lists show of a member: the person and their role here, never a credential. */
export interface MemberView {
  id: string;
  email: string;
  name: string;
  role: Role;
  status: "active" | "invited";
  mfa_enabled: boolean;
  created_at: string;
  invitation_expires_at: string | null;
}

/**
 * Until the person accepts, an invitation shows only what the inviter typed: the account's name
 * and MFA state belong to whoever holds it (maybe another organization's member), not to this one.
 */
export function memberView(m: MemberRecord, u: UserRecord): MemberView {
  const joined = m.status === "active";
  return {
    id: u.id,
    email: u.email,
    name: joined ? u.name : "",
    role: m.role,
    status: m.status,
    mfa_enabled: joined && hasSecondFactor(u),
    created_at: m.created_at,
    invitation_expires_at: m.status === "invited" ? m.invitation_expires_at : null,
  };
}
