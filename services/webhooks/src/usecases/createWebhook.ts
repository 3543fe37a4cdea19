// Registers a webhook endpoint for an organization, with a secret (given or generated) sealed at rest.
import { errors, newId } from "@verdict/kit";
import { checkSecret, checkUrl, generateSecret, normalizeEvents } from "../domain/endpoint.js";
import type { WebhookDeps } from "../deps.js";
import type { AuditContextInput } from "@verdict/outbox";
import { endpointChanges } from "../domain/audit.js";
import type { EndpointRecord } from "../repo.js";
import { webhookAuditEvent } from "./auditEvent.js";

export interface CreateWebhookCommand {
  organizationId: string;
  url: string;
  events: string[];
  /** Empty or absent: a secret is generated. */
  secret?: string;
  /** Who asks, for the audit event written with the change. */
  audit?: AuditContextInput | undefined;
}

export async function createWebhook(
  deps: WebhookDeps,
  cmd: CreateWebhookCommand,
): Promise<{ endpoint: EndpointRecord; secret: string }> {
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
      [
        {
          field: "url",
          code: "MAX_SIZE_EXCEEDED",
          max: deps.maxPerOrg,
          message: `An organization may have at most ${deps.maxPerOrg} webhooks; delete one (DELETE /v1/webhooks/{id}) before adding another`,
        },
      ],
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
  const audit = webhookAuditEvent(deps, {
    organizationId: cmd.organizationId,
    type: "webhook.created",
    context: cmd.audit,
    targetId: id,
    changes: endpointChanges(null, endpoint),
    // Whether the caller chose the secret or one was generated; never the secret.
    data: { secret: cmd.secret ? "given" : "generated" },
  });
  await deps.repo.insertEndpoint(endpoint, [audit]);
  // The URL's path and query may carry a receiver's own token: log the origin only.
  deps.logger.info(
    { organization_id: cmd.organizationId, webhook_id: id, origin: new URL(cmd.url).origin, events },
    "webhook created",
  );
  return { endpoint, secret };
}
