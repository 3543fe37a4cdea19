// proto -> REST JSON. Optional proto fields become explicit nulls, as the REST contract says.
import type { evaluationV1, identityV1, policyV1 } from "@verdict/proto";

export function evaluationJson(e: evaluationV1.Evaluation) {
  return {
    id: e.id,
    status: e.status,
    repository: e.repository,
    ref: e.ref,
    base_ref: e.base_ref || null,
    created_at: e.created_at,
    completed_at: e.completed_at ?? null,
    passed: e.passed ?? null,
    summary: e.summary ?? {
      total_files: 0,
      total_violations: 0,
      errors: 0,
      warnings: 0,
      suppressed: 0,
      skipped_files: 0,
    },
    violations: e.violations.map((v) => ({
      id: v.id,
      policy_id: v.policy_id,
      severity: v.severity,
      file: v.file,
      line: v.line,
      column: v.column,
      message: v.message,
      code_snippet: v.code_snippet,
      suggestion: v.suggestion,
      rule_id: v.rule_id,
      fingerprint: v.fingerprint,
    })),
    suppressions: e.suppressions.map((s) => ({
      policy_id: s.policy_id,
      rule_id: s.rule_id,
      file: s.file,
      line: s.line,
      reason: s.reason,
    })),
    ...(e.failure_reason ? { failure_reason: e.failure_reason } : {}),
  };
}

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
