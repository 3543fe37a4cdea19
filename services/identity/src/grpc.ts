// gRPC handlers: map proto <-> use cases, nothing else.
import type { AsyncService } from "@verdict/kit";
import { identityV1 } from "@verdict/proto";
import type { IdentityDeps } from "./deps.js";
import type { Environment, Expiration } from "./domain/apiKey.js";
import type { Plan } from "./domain/organization.js";
import type { KeyRecord } from "./repo.js";
import { createApiKey, listApiKeys, revokeApiKey } from "./usecases/apiKeys.js";
import { createOrganization, getOrganization, getOrganizationSettings, updateOrganization, updateOrganizationLimits, type OrganizationView } from "./usecases/organizations.js";
import type { OrgSettings } from "./domain/organization.js";
import { verifyKey } from "./usecases/verifyKey.js";

type Def = typeof identityV1.IdentityServiceService;

function toOrganization(o: OrganizationView): identityV1.Organization {
  return {
    id: o.id,
    name: o.name,
    plan: o.plan,
    members_count: o.members_count,
    repositories_count: o.repositories_count,
    created_at: o.created_at,
    settings: toSettings(o.settings),
    rate_limits: { ...o.rate_limits },
  };
}

function toSettings(s: OrgSettings): identityV1.OrganizationSettings {
  return { default_severity: s.default_severity, require_evaluation_pass: s.require_evaluation_pass, allow_inline_suppression: s.allow_inline_suppression };
}

function toApiKey(k: KeyRecord): identityV1.ApiKey {
  return {
    id: k.id,
    name: k.name,
    scopes: k.scopes,
    environment: k.environment,
    prefix: k.prefix,
    created_at: k.created_at,
    expires_at: k.expires_at ?? undefined,
    last_used_at: k.last_used_at ?? undefined,
    // A retired operator key works no more: lists show it revoked from its retirement on.
    revoked_at: k.revoked_at ?? k.retired_at ?? undefined,
    ip_allowlist: k.ip_allowlist,
    operator: k.operator,
  };
}

export function identityHandlers(deps: IdentityDeps): AsyncService<Def> {
  return {
    async verifyKey(req) {
      const { key, org } = await verifyKey(deps, { key: req.key, clientIp: req.client_ip });
      return {
        key_id: key.id,
        organization_id: org.id,
        organization_name: org.name,
        scopes: key.scopes,
        expires_at: key.expires_at ?? undefined,
        operator: key.operator,
        rate_limits: { ...org.rate_limits },
      };
    },
    async createOrganization(req) {
      const res = await createOrganization(deps, { name: req.name, plan: (req.plan || "free") as Plan, rateLimits: req.rate_limits });
      return { organization: toOrganization(res.org), api_key: toApiKey(res.keyRecord), key: res.key };
    },
    async updateOrganizationLimits(req) {
      return { organization: toOrganization(await updateOrganizationLimits(deps, req.organization_id, req.rate_limits ?? {})) };
    },
    async getOrganization(req) {
      return { organization: toOrganization(await getOrganization(deps, req.organization_id)) };
    },
    async getOrganizationSettings(req) {
      return { settings: toSettings(await getOrganizationSettings(deps, req.organization_id)) };
    },
    async updateOrganization(req) {
      const org = await updateOrganization(deps, {
        organizationId: req.organization_id,
        name: req.name,
        defaultSeverity: req.default_severity as "error" | "warning" | undefined,
        requireEvaluationPass: req.require_evaluation_pass,
        allowInlineSuppression: req.allow_inline_suppression,
      });
      return { organization: toOrganization(org) };
    },
    async listApiKeys(req) {
      return { api_keys: (await listApiKeys(deps, req.organization_id)).map(toApiKey) };
    },
    async createApiKey(req) {
      const { record, key } = await createApiKey(deps, {
        organizationId: req.organization_id,
        name: req.name,
        scopes: req.scopes,
        expiration: req.expiration as Expiration,
        ...(req.environment ? { environment: req.environment as Environment } : {}),
        ipAllowlist: req.ip_allowlist,
        ...(req.creator_key_id ? { creatorKeyId: req.creator_key_id } : {}),
      });
      return { api_key: toApiKey(record), key };
    },
    async revokeApiKey(req) {
      await revokeApiKey(deps, req.organization_id, req.key_id);
      return {};
    },
  };
}
