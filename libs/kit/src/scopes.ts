// The API's permission scopes (spec: API keys), one list for every service that grants or checks
// them: API keys and members (identity), OAuth tokens and request validation (gateway).
export const API_SCOPES = [
  "read:evaluations",
  "write:evaluations",
  "read:policies",
  "write:policies",
  "read:org",
  "write:org",
  "admin",
] as const;
export type ApiScope = (typeof API_SCOPES)[number];
