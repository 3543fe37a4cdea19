// The organization settings the engine honours come from the identity service (which owns them):
// the adapter behind EvaluationDeps.orgSettings.
import { AppError, type createClient, type Logger } from "@verdict/kit";
import type { identityV1 } from "@verdict/proto";
import type { OrgSettingsSource } from "./deps.js";

export /** Organization settings from the identity service. */
function identitySettings(
  client: ReturnType<typeof createClient<typeof identityV1.IdentityServiceService>>,
  logger: Logger,
): OrgSettingsSource {
  return {
    async get(organizationId) {
      try {
        const { settings } = await client.getOrganizationSettings({ organization_id: organizationId });
        return {
          allowInlineSuppression: settings?.allow_inline_suppression ?? true,
          requireConnectedRepository: settings?.require_connected_repository ?? false,
          liveVerification: {
            enabled: settings?.live_verification?.enabled ?? false,
            providers: settings?.live_verification?.providers ?? [],
          },
        };
      } catch (err) {
        // An organization deleted while its work was queued evaluates with the defaults.
        if (err instanceof AppError && err.kind === "not_found") {
          logger.warn({ organization_id: organizationId }, "organization unknown to identity; using default settings");
          return {
            allowInlineSuppression: true,
            requireConnectedRepository: false,
            liveVerification: { enabled: false, providers: [] },
          };
        }
        throw err;
      }
    },
  };
}
