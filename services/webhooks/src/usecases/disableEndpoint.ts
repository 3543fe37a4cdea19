// Disables an endpoint that failed for good (410 Gone, or a whole retry schedule without success).
import { TOPICS } from "@verdict/bus";
import type { WebhookDeps } from "../deps.js";
import type { EndpointRecord } from "../repo.js";
import { notifyDisabled } from "./notifyDisabled.js";

export interface DisableEndpointCommand {
  endpoint: EndpointRecord;
  /** Shown to the organization (the endpoint's disabled_reason and the webhook.disabled event). */
  reason: string;
}

/** Disables an active endpoint once (the first caller wins), announces it and notifies the others. */
export async function disableEndpoint(deps: WebhookDeps, cmd: DisableEndpointCommand): Promise<void> {
  const { endpoint, reason } = cmd;
  const at = deps.clock.now().toISOString();
  const event = deps.outbox.event(TOPICS.webhookDisabled, {
    source: "/webhooks",
    subject: endpoint.id,
    data: { organization_id: endpoint.organization_id, webhook_id: endpoint.id, reason, disabled_at: at },
  });
  const disabled = await deps.repo.disableActiveEndpoint(endpoint, reason, at, event);
  if (!disabled) return;
  deps.logger.warn({ organization_id: endpoint.organization_id, webhook_id: endpoint.id, reason }, "webhook disabled");
  await notifyDisabled(deps, disabled);
}
