// The audit log's event types: every security-relevant change, as an append-only record. One list
// for identity, which records them, and the gateway, whose schemas (and so the OpenAPI document)
// name them.
import { isDeepStrictEqual } from "node:util";

export const AUDIT_EVENT_TYPES = [
  "signin.succeeded",
  "signin.failed",
  "signin.locked",
  "signout",
  "mfa.totp_enabled",
  "mfa.passkey_added",
  "mfa.passkey_deleted",
  "mfa.recovery_code_used",
  "password.changed",
  "password.reset_issued",
  "password.reset",
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
  // Configuration changes, recorded by the service that owns the change (docs/audit.md).
  "organization.updated",
  // The instance operator's changes to an organization, recorded in that organization's log.
  "organization.created",
  "organization.limits_updated",
  "policy.created",
  "policy.updated",
  "policy.enabled",
  "policy.disabled",
  "policy.deleted",
  "repository.connected",
  "repository.disconnected",
  "repository.renamed",
  "webhook.created",
  "webhook.updated",
  "webhook.deleted",
  "evaluation.deleted",
  "report.created",
  "report.downloaded",
  // A member's triage of a finding (false positive, accepted risk, or taken back to open).
  "finding.triaged",
  // The instance itself: an accepted risk's expiry reopened a finding.
  "finding.accepted_risk_expired",
  "integration.connected",
  "integration.disconnected",
] as const;
export type AuditEventType = (typeof AUDIT_EVENT_TYPES)[number];

/** One changed field of an audit event: its value before and after (null: absent). */
export interface FieldChange {
  before: unknown;
  after: unknown;
}

/**
 * The fields whose values differ between two states (deep equality, whatever the key order), with both values: the
 * before/after of an audit event. Only the keys given are compared, so a caller names exactly
 * the fields that may be shown (never a secret).
 */
export function fieldChanges(
  before: Record<string, unknown> | null,
  after: Record<string, unknown> | null,
  keys: readonly string[],
): Record<string, FieldChange> {
  const out: Record<string, FieldChange> = {};
  for (const key of keys) {
    const b = before?.[key] ?? null;
    const a = after?.[key] ?? null;
    if (!isDeepStrictEqual(b, a)) out[key] = { before: b, after: a };
  }
  return out;
}
