// gRPC handlers: map proto <-> use cases, nothing else.
import { messageFields, type AsyncService } from "@verdict/kit";
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
  };
}

export function integrationsHandlers(deps: IntegrationsDeps): AsyncService<Def> {
  return {
    async createConnection(req) {
      const connection = await createConnection(deps, {
        organizationId: req.organization_id,
        provider: req.provider,
        baseUrl: req.base_url,
        token: req.token,
        webhookSecret: req.webhook_secret,
        appId: req.app_id,
        privateKey: req.private_key,
        audit: req.audit,
      });
      return { connection: toConnection(connection) };
    },
    async listConnections(req) {
      return { connections: (await listConnections(deps, { organizationId: req.organization_id })).map(toConnection) };
    },
    async deleteConnection(req) {
      await deleteConnection(deps, {
        organizationId: req.organization_id,
        connectionId: req.connection_id,
        audit: req.audit,
      });
      return {};
    },
    async resolveRepository(req) {
      const resolved = await resolveRepository(deps, {
        organizationId: req.organization_id,
        provider: req.provider,
        name: req.name,
      });
      // Not connected where a connection is optional: nothing resolved, the name is stored as given.
      if (resolved === null) return { connection_id: "", provider_repo_id: "", full_name: "", default_branch: "" };
      const { connectionId, repository } = resolved;
      return {
        connection_id: connectionId,
        provider_repo_id: repository.providerRepoId,
        full_name: repository.fullName,
        default_branch: repository.defaultBranch,
      };
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
      const { outcome, deliveryId } = await receiveEvent(deps, {
        provider: req.provider,
        connectionId: req.connection_id,
        headers: req.headers,
        body: Buffer.from(req.body),
      });
      return { outcome, delivery_id: deliveryId };
    },
  };
}
