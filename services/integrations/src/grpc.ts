// gRPC handlers: map proto <-> use cases, nothing else.
import { commandOf, messageFields, replyOf, type AsyncService } from "@verdict/kit";
import type { integrationsV1 } from "@verdict/proto";
import type { IntegrationsDeps } from "./deps.js";
import { eventsPath } from "./domain/connection.js";
import type { ConnectionRecord } from "./repo.js";
import { createConnection, deleteConnection, listConnections } from "./usecases/connections.js";
import {
  completeGitHubAppManifest,
  getGitHubAppManifest,
  startGitHubAppManifest,
} from "./usecases/githubAppManifest.js";
import { receiveEvent } from "./usecases/receiveEvent.js";
import { resolveRepository } from "./usecases/resolveRepository.js";

type Def = typeof integrationsV1.IntegrationsServiceService;

function toConnection(c: ConnectionRecord): integrationsV1.Connection {
  return {
    ...messageFields(c, [
      "id",
      "provider",
      "base_url",
      "app_id",
      "created_at",
      "status",
      "last_event_at",
      "last_error",
      "last_error_at",
    ]),
    events_path: eventsPath(c.provider, c.id),
    token_expiry: c.token_expiry ?? "unknown",
    ...(c.token_expires_at ? { token_expires_at: c.token_expires_at } : {}),
  };
}

export function integrationsHandlers(deps: IntegrationsDeps): AsyncService<Def> {
  return {
    async createConnection(req) {
      return { connection: toConnection(await createConnection(deps, commandOf(req))) };
    },
    async listConnections(req) {
      return { connections: (await listConnections(deps, commandOf(req))).map(toConnection) };
    },
    async deleteConnection(req) {
      await deleteConnection(deps, commandOf(req));
      return {};
    },
    async resolveRepository(req) {
      const resolved = await resolveRepository(deps, commandOf(req));
      // Not connected where a connection is optional: nothing resolved, the name is stored as given.
      if (resolved === null) return { connection_id: "", provider_repo_id: "", full_name: "", default_branch: "" };
      return replyOf({ connectionId: resolved.connectionId, ...resolved.repository });
    },
    async startGitHubAppManifest(req) {
      const started = await startGitHubAppManifest(deps, {
        organizationId: req.organization_id,
        apiBaseUrl: req.api_base_url,
        githubOrganization: req.github_organization || undefined,
        publicOrigin: req.public_origin,
        audit: req.audit,
      });
      return {
        state: started.state,
        action: started.action,
        manifest_json: started.manifestJson,
        expires_at: started.expiresAt,
        connection_id: started.connectionId,
      };
    },
    async getGitHubAppManifest(req) {
      const { action, manifestJson } = await getGitHubAppManifest(deps, { state: req.state });
      return { action, manifest_json: manifestJson };
    },
    async completeGitHubAppManifest(req) {
      const connection = await completeGitHubAppManifest(deps, {
        organizationId: req.organization_id,
        state: req.state,
        code: req.code,
        audit: req.audit,
      });
      return { connection: toConnection(connection) };
    },
    async receiveEvent(req) {
      return replyOf(await receiveEvent(deps, { ...commandOf(req), body: Buffer.from(req.body) }));
    },
  };
}
