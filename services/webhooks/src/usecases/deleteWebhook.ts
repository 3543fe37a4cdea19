// Removes an endpoint, with its messages and their log.
import { errors } from "@verdict/kit";
import type { WebhookDeps } from "../deps.js";
import type { WebhookRef } from "./getWebhook.js";

export async function deleteWebhook(deps: WebhookDeps, cmd: WebhookRef): Promise<void> {
  const { organizationId, webhookId } = cmd;
  // Its messages and their log go with it.
  const { deleted, deliveriesRemoved } = await deps.repo.deleteEndpoint(organizationId, webhookId);
  if (!deleted) throw errors.notFound("webhook", webhookId);
  deps.logger.info(
    { organization_id: organizationId, webhook_id: webhookId, deliveries_removed: deliveriesRemoved },
    "webhook deleted",
  );
}
