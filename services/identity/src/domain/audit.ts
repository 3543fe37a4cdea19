// The audit log's event types: every security-relevant change, as an append-only record.
export const AUDIT_TYPES = [
  "signin.succeeded",
  "signin.failed",
  "signin.locked",
  "signout",
  "mfa.totp_enabled",
  "mfa.passkey_added",
  "mfa.passkey_deleted",
  "mfa.recovery_code_used",
  "api_key.created",
  "api_key.revoked",
  "member.invited",
  "member.joined",
  "member.role_changed",
  "member.removed",
  "oauth_client.created",
  "oauth_client.deleted",
  "oauth.granted",
  "oauth.token_revoked",
  "oauth.grant_revoked",
  "scim_token.created",
  "scim_token.deleted",
  "scim.user_created",
  "scim.user_updated",
  "scim.user_deactivated",
  "scim.user_reactivated",
  "scim.user_deleted",
  "scim.group_created",
  "scim.group_updated",
  "scim.group_deleted",
  "sso.connection_updated",
  "sso.connection_deleted",
  "sso.domain_verified",
] as const;
export type AuditType = (typeof AUDIT_TYPES)[number];

export function isAuditType(value: string): value is AuditType {
  return (AUDIT_TYPES as readonly string[]).includes(value);
}
