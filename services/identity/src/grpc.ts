// The identity service's gRPC handlers: one module per aggregate (grpc/), each mapping proto <->
// its use cases and nothing else, composed here into the service's one implementation.
import type { AsyncService } from "@verdict/kit";
import type { identityV1 } from "@verdict/proto";
import type { IdentityDeps } from "./deps.js";
import { accountHandlers } from "./grpc/accounts.js";
import { apiKeyHandlers } from "./grpc/apiKeys.js";
import { auditHandlers } from "./grpc/audit.js";
import { memberHandlers } from "./grpc/members.js";
import { mfaHandlers } from "./grpc/mfa.js";
import { oauthHandlers } from "./grpc/oauth.js";
import { organizationHandlers } from "./grpc/organizations.js";
import { scimHandlers } from "./grpc/scim.js";
import { sessionHandlers } from "./grpc/sessions.js";
import { ssoHandlers } from "./grpc/sso.js";

export function identityHandlers(deps: IdentityDeps): AsyncService<typeof identityV1.IdentityServiceService> {
  return {
    ...organizationHandlers(deps),
    ...apiKeyHandlers(deps),
    ...memberHandlers(deps),
    ...accountHandlers(deps),
    ...sessionHandlers(deps),
    ...mfaHandlers(deps),
    ...oauthHandlers(deps),
    ...ssoHandlers(deps),
    ...scimHandlers(deps),
    ...auditHandlers(deps),
  };
}
