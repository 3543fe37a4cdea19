// gRPC handlers of organizations: creation (instance operators only), reading, settings and rate
// limits. Map proto <-> use cases, nothing else.
import { messageFields } from "@verdict/kit";
import type { identityV1 } from "@verdict/proto";
import type { Plan } from "../domain/organization.js";
import { createOrganization } from "../usecases/organizations/createOrganization.js";
import { getOrganization, type OrganizationView } from "../usecases/organizations/getOrganization.js";
import { getOrganizationSettings } from "../usecases/organizations/getOrganizationSettings.js";
import { updateOrganization } from "../usecases/organizations/updateOrganization.js";
import { updateOrganizationLimits } from "../usecases/organizations/updateOrganizationLimits.js";
import type { OrgSettings } from "../domain/organization.js";
import { toApiKey } from "./apiKeys.js";
import type { IdentityDeps } from "../deps.js";
import type { IdentityHandlers } from "./mapping.js";

function toOrganization(o: OrganizationView): identityV1.Organization {
  return {
    ...messageFields(o, ["id", "name", "plan", "members_count", "repositories_count", "created_at"]),
    settings: toSettings(o.settings),
    rate_limits: { ...o.rate_limits },
  };
}

function toSettings(s: OrgSettings): identityV1.OrganizationSettings {
  return {
    ...messageFields(s, ["default_severity", "require_evaluation_pass", "allow_inline_suppression", "require_mfa"]),
    require_connected_repository: s.require_connected_repository,
    system_description: s.system_description ?? "",
    report_scope: s.report_scope ?? "",
    audit_retention_days: s.audit_retention_days ?? 0,
    live_verification: { enabled: s.live_verification.enabled, providers: [...s.live_verification.providers] },
  };
}

export function organizationHandlers(
  deps: IdentityDeps,
): IdentityHandlers<
  | "createOrganization"
  | "updateOrganizationLimits"
  | "getOrganization"
  | "getOrganizationSettings"
  | "updateOrganization"
> {
  return {
    async createOrganization(req) {
      const res = await createOrganization(deps, {
        name: req.name,
        plan: (req.plan || "free") as Plan,
        rateLimits: req.rate_limits,
      });
      return { organization: toOrganization(res.org), api_key: toApiKey(res.keyRecord), key: res.key };
    },
    async updateOrganizationLimits(req) {
      return {
        organization: toOrganization(
          await updateOrganizationLimits(deps, { organizationId: req.organization_id, limits: req.rate_limits ?? {} }),
        ),
      };
    },
    async getOrganization(req) {
      return { organization: toOrganization(await getOrganization(deps, { organizationId: req.organization_id })) };
    },
    async getOrganizationSettings(req) {
      return { settings: toSettings(await getOrganizationSettings(deps, { organizationId: req.organization_id })) };
    },
    async updateOrganization(req) {
      const org = await updateOrganization(deps, {
        organizationId: req.organization_id,
        name: req.name,
        defaultSeverity: req.default_severity as "error" | "warning" | undefined,
        requireEvaluationPass: req.require_evaluation_pass,
        allowInlineSuppression: req.allow_inline_suppression,
        requireMfa: req.require_mfa,
        systemDescription: req.system_description,
        reportScope: req.report_scope,
        requireConnectedRepository: req.require_connected_repository,
        // No provider named on the wire: the providers stay.
        liveVerification: req.live_verification && {
          enabled: req.live_verification.enabled,
          providers: req.live_verification.providers.length ? req.live_verification.providers : undefined,
        },
        // 0 on the wire: kept forever.
        ...(req.audit_retention_days !== undefined ? { auditRetentionDays: req.audit_retention_days || null } : {}),
        audit: req.audit,
      });
      return { organization: toOrganization(org) };
    },
  };
}
