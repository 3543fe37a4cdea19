// Registering, reading and removing webhook endpoints.
import { errors, newId } from "@verdict/kit";
import { checkSecret, checkUrl, generateSecret, normalizeEvents } from "../domain/endpoint.js";
import type { WebhookDeps } from "../deps.js";
import type { EndpointRecord } from "../repo.js";

export interface CreateWebhookCommand {
  organizationId: string;
  url: string;
  events: string[];
  /** Empty or absent: a secret is generated. */
  secret?: string;
}

export async function createWebhook(deps: WebhookDeps, cmd: CreateWebhookCommand): Promise<{ endpoint: EndpointRecord; secret: string }> {
  // Unknown event names and a missing URL fail the published schema (400); the rest are rules
  // that depend on this instance or on decoding values (422).
  const { events, problems } = normalizeEvents(cmd.events);
  if (!cmd.url) problems.push({ field: "url", code: "REQUIRED", message: "url is required" });
  if (problems.length) throw errors.validation(problems);
  const rules = [...checkUrl(cmd.url, deps.egress), ...(cmd.secret ? checkSecret(cmd.secret) : [])];
  if (rules.length) throw errors.unprocessable(rules);
  // Every endpoint costs delivery work on each event: an organization gets a bounded number.
  if ((await deps.repo.countEndpoints(cmd.organizationId)) >= deps.maxPerOrg) {
    throw errors.unprocessable(
      [{ field: "url", code: "MAX_SIZE_EXCEEDED", max: deps.maxPerOrg, message: `An organization may have at most ${deps.maxPerOrg} webhooks; delete one (DELETE /v1/webhooks/{id}) before adding another` }],
      `Webhook limit reached (${deps.maxPerOrg} per organization)`,
    );
  }

  const now = deps.clock.now();
  const id = newId("wh", now.getTime());
  const secret = cmd.secret || generateSecret();
  const endpoint: EndpointRecord = {
    id,
    organization_id: cmd.organizationId,
    url: cmd.url,
    events,
    secret_sealed: deps.secrets.seal(secret, id),
    status: "active",
    disabled_reason: null,
    disabled_at: null,
    last_success_at: null,
    created_at: now.toISOString(),
    updated_at: now.toISOString(),
  };
  await deps.repo.insertEndpoint(endpoint);
  // The URL's path and query may carry a receiver's own token: log the origin only.
  deps.logger.info({ organization_id: cmd.organizationId, webhook_id: id, origin: new URL(cmd.url).origin, events }, "webhook created");
  return { endpoint, secret };
}

export async function listWebhooks(deps: WebhookDeps, organizationId: string): Promise<EndpointRecord[]> {
  return deps.repo.listEndpoints(organizationId);
}

export async function getWebhook(deps: WebhookDeps, organizationId: string, webhookId: string): Promise<EndpointRecord> {
  const endpoint = await deps.repo.findEndpoint(organizationId, webhookId);
  if (!endpoint) throw errors.notFound("webhook", webhookId);
  return endpoint;
}

export interface UpdateWebhookCommand {
  organizationId: string;
  webhookId: string;
  url?: string;
  events?: string[];
  status?: string;
}

/**
 * Changes an endpoint. Setting `status: "active"` re-enables a disabled endpoint (after its
 * receiver was fixed); its messages that failed meanwhile can be sent again by redelivery.
 */
export async function updateWebhook(deps: WebhookDeps, cmd: UpdateWebhookCommand): Promise<EndpointRecord> {
  const endpoint = await getWebhook(deps, cmd.organizationId, cmd.webhookId);
  const normalized = cmd.events ? normalizeEvents(cmd.events) : undefined;
  const problems = [...(normalized?.problems ?? [])];
  if (cmd.status !== undefined && cmd.status !== "active" && cmd.status !== "disabled") {
    problems.push({ field: "status", code: "INVALID_ENUM", message: "status must be active or disabled" });
  }
  if (cmd.url !== undefined && !cmd.url) problems.push({ field: "url", code: "REQUIRED", message: "url must not be empty" });
  if (problems.length) throw errors.validation(problems);
  const rules = cmd.url ? checkUrl(cmd.url, deps.egress) : [];
  if (rules.length) throw errors.unprocessable(rules);

  const now = deps.clock.now().toISOString();
  const set: Partial<EndpointRecord> = { updated_at: now };
  if (cmd.url) set.url = cmd.url;
  if (normalized) set.events = normalized.events;
  if (cmd.status === "active" && endpoint.status !== "active") Object.assign(set, { status: "active", disabled_reason: null, disabled_at: null });
  if (cmd.status === "disabled" && endpoint.status !== "disabled") Object.assign(set, { status: "disabled", disabled_reason: "Disabled by the organization", disabled_at: now });
  const updated = await deps.repo.updateEndpoint(cmd.organizationId, endpoint.id, set);
  if (!updated) throw errors.notFound("webhook", cmd.webhookId);
  deps.logger.info({ organization_id: cmd.organizationId, webhook_id: endpoint.id, status: updated.status, events: updated.events }, "webhook updated");
  return updated;
}

export async function deleteWebhook(deps: WebhookDeps, organizationId: string, webhookId: string): Promise<void> {
  // Its messages and their log go with it.
  const { deleted, deliveriesRemoved } = await deps.repo.deleteEndpoint(organizationId, webhookId);
  if (!deleted) throw errors.notFound("webhook", webhookId);
  deps.logger.info({ organization_id: organizationId, webhook_id: webhookId, deliveries_removed: deliveriesRemoved }, "webhook deleted");
}
