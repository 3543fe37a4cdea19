import { hasSecondFactor } from "../../domain/mfa.js";
import { withDefaults } from "../../domain/organization.js";
import { roleScopes, type Role } from "../../domain/member.js";
import { idleExpiry, type SessionPolicy } from "../../domain/session.js";
import type { OrgRecord } from "../../repos/organizationRepo.js";
import type { SessionRecord } from "../../repos/sessionRepo.js";
import type { UserRecord } from "../../repos/accountRepo.js";

/** Who is signed in: the session, the person, their organization and what their role lets them do. */
export interface SessionView {
  id: string;
  user_id: string;
  email: string;
  name: string;
  organization_id: string;
  organization_name: string;
  role: Role;
  scopes: string[];
  created_at: string;
  idle_expires_at: string;
  expires_at: string;
  mfa_enabled: boolean;
  /** The organization requires MFA and this person has none yet: enrolment comes first. */
  mfa_enrolment_required: boolean;
  rate_limits: OrgRecord["rate_limits"];
}

export function sessionView(
  s: SessionRecord,
  user: UserRecord,
  org: OrgRecord,
  role: Role,
  policy: SessionPolicy,
): SessionView {
  const idle = idleExpiry(s.last_seen_at, policy);
  const mfaEnabled = hasSecondFactor(user);
  return {
    id: s.id,
    user_id: user.id,
    email: user.email,
    name: user.name,
    organization_id: org.id,
    organization_name: org.name,
    role,
    scopes: roleScopes(role),
    created_at: s.created_at,
    idle_expires_at: idle < s.expires_at ? idle : s.expires_at,
    expires_at: s.expires_at,
    mfa_enabled: mfaEnabled,
    mfa_enrolment_required: withDefaults(org.settings).require_mfa && !mfaEnabled && s.idp_mfa !== true,
    rate_limits: org.rate_limits,
  };
}
