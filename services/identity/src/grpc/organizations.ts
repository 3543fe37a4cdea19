// gRPC handlers of organizations: creation (instance operators only), reading, settings and rate
// limits. Map proto <-> use cases, nothing else.
import { commandOf, messageFields } from "@verdict/kit";
import type { identityV1 } from "@verdict/proto";
import type { Plan } from "../domain/organization.js";
import { createOrganization } from "../usecases/organizations/createOrganization.js";
import { getOrganization, type OrganizationView } from "../usecases/organizations/getOrganization.js";
import { getOrganizationSettings } from "../usecases/organizations/getOrganizationSettings.js";
import { updateOrganization, type UpdateOrganizationCommand } from "../usecases/organizations/updateOrganization.js";
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
      // No plan named: free (the gateway's schema checked a named one).
      const res = await createOrganization(deps, { ...commandOf(req), plan: (req.plan || "free") as Plan });
      return { organization: toOrganization(res.org), api_key: toApiKey(res.keyRecord), key: res.key };
    },
    async updateOrganizationLimits(req) {
      return {
        organization: toOrganization(
          await updateOrganizationLimits(deps, { ...commandOf(req), limits: req.rate_limits ?? {} }),
        ),
      };
    },
    async getOrganization(req) {
      return { organization: toOrganization(await getOrganization(deps, commandOf(req))) };
    },
    async getOrganizationSettings(req) {
      return { settings: toSettings(await getOrganizationSettings(deps, commandOf(req))) };
    },
    async updateOrganization(req) {
      const { auditRetentionDays, liveVerification, ...command } = commandOf(req);
      const org = await updateOrganization(deps, {
        ...command,
        // The gateway's schema checked the severity against the two the use case takes.
        defaultSeverity: req.default_severity as UpdateOrganizationCommand["defaultSeverity"],
        // No provider named on the wire: the providers stay.
        liveVerification: liveVerification && {
          enabled: liveVerification.enabled,
          providers: liveVerification.providers.length ? liveVerification.providers : undefined,
        },
        // 0 on the wire: kept forever.
        ...(auditRetentionDays !== undefined ? { auditRetentionDays: auditRetentionDays || null } : {}),
      });
      return { organization: toOrganization(org) };
    },
  };
}
