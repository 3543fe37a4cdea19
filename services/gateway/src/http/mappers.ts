// proto -> REST JSON. Optional proto fields become explicit nulls, as the REST contract says.
// The evaluation service's mappers are generated from its proto (src/gen/evaluation.rest.ts).
import type { identityV1, policyV1 } from "@verdict/proto";

export function policySummaryJson(p: policyV1.Policy) {
  return {
    id: p.id,
    name: p.name,
    description: p.description,
    severity: p.severity,
    enabled: p.enabled,
    category: p.category,
    frameworks: p.frameworks,
    builtin: p.builtin,
  };
}

export function policyJson(p: policyV1.Policy) {
  return {
    ...policySummaryJson(p),
    patterns: p.patterns.map((x) => ({ type: x.type, value: x.value, message: x.message })),
    suggestions: p.suggestions.map((s) => ({ text: s.text })),
    settings: p.settings ?? {},
    documentation_url: p.documentation_url,
  };
}

export function repositoryJson(r: policyV1.Repository) {
  return {
    id: r.id,
    name: r.name,
    provider: r.provider,
    default_branch: r.default_branch,
    connected_at: r.connected_at,
    last_evaluation: r.last_evaluation ?? null,
  };
}

export function organizationJson(o: identityV1.Organization) {
  return {
    id: o.id,
    name: o.name,
    plan: o.plan,
    members_count: o.members_count,
    repositories_count: o.repositories_count,
    created_at: o.created_at,
    settings: {
      default_severity: (o.settings?.default_severity || "error") as "error" | "warning",
      require_evaluation_pass: o.settings?.require_evaluation_pass ?? true,
      allow_inline_suppression: o.settings?.allow_inline_suppression ?? true,
      require_mfa: o.settings?.require_mfa ?? false,
    },
  };
}

export function operatorOrganizationJson(o: identityV1.Organization) {
  return { ...organizationJson(o), rate_limits: { ...(o.rate_limits ?? {}) } };
}

export function apiKeyJson(k: identityV1.ApiKey, now = Date.now()) {
  const status = k.revoked_at ? "revoked" : k.expires_at && Date.parse(k.expires_at) <= now ? "expired" : "active";
  return {
    id: k.id,
    name: k.name,
    scopes: k.scopes,
    environment: k.environment as "prod" | "test",
    prefix: k.prefix,
    status,
    created_at: k.created_at,
    expires_at: k.expires_at ?? null,
    last_used_at: k.last_used_at ?? null,
    revoked_at: k.revoked_at ?? null,
    ip_allowlist: k.ip_allowlist.length ? k.ip_allowlist.join(",") : null,
  };
}
