import type { Route } from "../http/route.js";
import { complianceRoutes } from "./compliance.js";
import { evaluationRoutes } from "./evaluations.js";
import { healthRoutes } from "./health.js";
import { organizationRoutes } from "./organization.js";
import { policyGeneratedRoutes } from "../gen/policy.rest.js";
import { webhooksGeneratedRoutes } from "../gen/webhooks.rest.js";
import { withProviderResolution } from "./repositories.js";
import { integrationsGeneratedRoutes } from "../gen/integrations.rest.js";
import { identityGeneratedRoutes } from "../gen/identity.rest.js";
import { gitHubAppRoutes } from "./githubApp.js";
import { auditRoutes } from "./audit.js";
import { memberRoutes } from "./members.js";
import { passwordRoutes } from "./passwords.js";
import { signInRoutes } from "./signin.js";
import { ssoRoutes } from "./sso.js";

export const routes: Route[] = [
  ...healthRoutes,
  ...evaluationRoutes,
  ...policyGeneratedRoutes.map((r) => (r.operationId === "connectRepository" ? withProviderResolution(r) : r)),
  ...organizationRoutes,
  ...complianceRoutes,
  ...webhooksGeneratedRoutes,
  ...integrationsGeneratedRoutes,
  ...gitHubAppRoutes,
  ...memberRoutes,
  ...passwordRoutes,
  ...signInRoutes,
  ...auditRoutes,
  ...identityGeneratedRoutes,
  ...ssoRoutes,
];
