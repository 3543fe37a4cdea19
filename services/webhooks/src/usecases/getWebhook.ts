// One endpoint of an organization; not found for another organization's.
import { errors } from "@verdict/kit";
import type { WebhookDeps } from "../deps.js";
import type { EndpointRecord } from "../repo.js";

/** Names one endpoint of one organization (other use cases take it as their first step). */
export interface WebhookRef {
  organizationId: string;
  webhookId: string;
}

export async function getWebhook(deps: WebhookDeps, ref: WebhookRef): Promise<EndpointRecord> {
  const endpoint = await deps.repo.findEndpoint(ref.organizationId, ref.webhookId);
  if (!endpoint) throw errors.notFound("webhook", ref.webhookId);
  return endpoint;
}
