// POST /v1/repositories: the generated route (proto/verdict/policy/v1/policy.proto: validation,
// OpenAPI, JSON mapping) with a hand-written handler, because the call composes two services: for
// a provider Verdict reads through a connection, the integrations service answers for the
// repository first (it must exist and be readable; its own id and default branch are what is
// stored), then the policy service stores it. DESIGN.md has the policy service ask integrations
// itself; until it does, the gateway makes the two calls.
import { policyV1 } from "@verdict/proto";
import { repositoryJson } from "../gen/policy.rest.js";
import { auditContext } from "../http/auth.js";
import type { Route } from "../http/route.js";
import { integrationsClient } from "../gen/integrations.rest.js";

/** Providers whose repositories are read through the organization's connection (the integrations service). */
const CONNECTED_PROVIDERS = new Set(["gitea", "github", "gitlab"]);
/**
 * Providers whose repositories are stored by name, as given, where the organization has no
 * connection to them (or the integrations service is not deployed): GitHub and GitLab, as before
 * their connections existed.
 */
const CONNECTION_OPTIONAL = new Set(["github", "gitlab"]);

interface ConnectBody {
  provider: string;
  name: string;
  default_branch?: string | undefined;
}

/** The generated connectRepository route, its handler asking the provider first. */
export function withProviderResolution(generated: Route): Route {
  return {
    ...generated,
    handler: async ({ body, principal, requestId, clientIp, clients }) => {
      const { provider, name, default_branch } = body as ConnectBody;
      const organizationId = principal!.organizationId;
      const asked =
        CONNECTED_PROVIDERS.has(provider) && !(CONNECTION_OPTIONAL.has(provider) && !clients.integrations)
          ? await integrationsClient(clients).resolveRepository({ organization_id: organizationId, provider, name })
          : undefined;
      // An empty answer: no connection to a provider where one is optional.
      const resolved = asked?.connection_id ? asked : undefined;
      const res = await clients.policy.connectRepository(
        policyV1.ConnectRepositoryRequest.fromPartial({
          organization_id: organizationId,
          provider,
          name,
          default_branch: resolved?.default_branch ?? default_branch,
          provider_repo_id: resolved?.provider_repo_id,
          connection_id: resolved?.connection_id,
          audit: auditContext(principal!, requestId, clientIp),
        }),
      );
      return { status: 201, body: repositoryJson(res.repository!) };
    },
  };
}
