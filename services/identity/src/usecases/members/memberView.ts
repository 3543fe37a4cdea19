import type { Role } from "../../domain/member.js";
import { hasSecondFactor } from "../../domain/mfa.js";
import type { MemberRecord, UserRecord } from "../../repo.js";

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

export function memberView(m: MemberRecord, u: UserRecord): MemberView {
  return {
    id: u.id,
    email: u.email,
    name: u.name,
    role: m.role,
    status: m.status,
    mfa_enabled: hasSecondFactor(u),
    created_at: m.created_at,
    invitation_expires_at: m.status === "invited" ? m.invitation_expires_at : null,
  };
}
