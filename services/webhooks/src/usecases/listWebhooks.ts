// An organization's webhook endpoints, oldest first.
import type { WebhookDeps } from "../deps.js";
import type { EndpointRecord } from "../repo.js";

export interface ListWebhooksQuery {
  organizationId: string;
}

export async function listWebhooks(deps: WebhookDeps, query: ListWebhooksQuery): Promise<EndpointRecord[]> {
  return deps.repo.listEndpoints(query.organizationId);
}
