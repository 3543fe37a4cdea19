// proto -> REST JSON. Optional proto fields become explicit nulls, as the REST contract says.
// The evaluation and policy services' mappers are generated from their proto (src/gen/*.rest.ts).
import { jsonFields, type LiveVerificationProvider } from "@verdict/kit";
import type { identityV1 } from "@verdict/proto";

export function organizationJson(o: identityV1.Organization) {
  return {
    ...jsonFields(o, ["id", "name", "plan", "members_count", "repositories_count", "created_at"]),
    settings: {
      default_severity: (o.settings?.default_severity || "error") as "error" | "warning",
      require_evaluation_pass: o.settings?.require_evaluation_pass ?? true,
      allow_inline_suppression: o.settings?.allow_inline_suppression ?? true,
      require_mfa: o.settings?.require_mfa ?? false,
      system_description: o.settings?.system_description ?? "",
      report_scope: o.settings?.report_scope ?? "",
      require_connected_repository: o.settings?.require_connected_repository ?? false,
      audit_retention_days: o.settings?.audit_retention_days || null,
      live_verification: {
        enabled: o.settings?.live_verification?.enabled ?? false,
        providers: (o.settings?.live_verification?.providers ?? []) as LiveVerificationProvider[],
      },
    },
  };
}

export function operatorOrganizationJson(o: identityV1.Organization) {
  return { ...organizationJson(o), rate_limits: { ...(o.rate_limits ?? {}) } };
}

export function apiKeyJson(k: identityV1.ApiKey, now = Date.now()) {
  const status = k.revoked_at ? "revoked" : k.expires_at && Date.parse(k.expires_at) <= now ? "expired" : "active";
  return {
    ...jsonFields(k, ["id", "name", "scopes", "environment", "prefix"]),
    environment: k.environment as "prod" | "test",
    status,
    ...jsonFields(k, ["created_at", "expires_at", "last_used_at", "revoked_at"]),
    ip_allowlist: k.ip_allowlist.length ? k.ip_allowlist.join(",") : null,
  };
}
