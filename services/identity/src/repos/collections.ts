/**
 * The identity service's collections, by name in the store: only for tests that count reads or
 * write a record as an earlier version stored it; everything else goes through the repositories (repos/index.ts).
 */
export const IDENTITY_COLLECTIONS = {
  orgs: "identity_organizations",
  keys: "identity_api_keys",
  members: "identity_members",
  users: "identity_users",
  sessions: "identity_sessions",
  throttles: "identity_signin_throttles",
  audit: "identity_audit_events",
  auditCheckpoints: "identity_audit_checkpoints",
  oauthClients: "identity_oauth_clients",
  oauthArtifacts: "identity_oauth_artifacts",
  scimTokens: "identity_scim_tokens",
  scimUsers: "identity_scim_users",
  scimGroups: "identity_scim_groups",
} as const;
