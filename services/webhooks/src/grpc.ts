// gRPC handlers: map proto <-> use cases, nothing else.
import { messageFields, type AsyncService } from "@verdict/kit";
import { webhooksV1 } from "@verdict/proto";
import type { WebhookDeps } from "./deps.js";
import type { DeliveryRecord, EndpointRecord } from "./repo.js";
import { createWebhook } from "./usecases/createWebhook.js";
import { deleteWebhook } from "./usecases/deleteWebhook.js";
import { getWebhook } from "./usecases/getWebhook.js";
import { listDeliveries } from "./usecases/listDeliveries.js";
import { listWebhooks } from "./usecases/listWebhooks.js";
import { pingWebhook } from "./usecases/pingWebhook.js";
import { redeliverDelivery } from "./usecases/redeliverDelivery.js";
import { updateWebhook } from "./usecases/updateWebhook.js";

type Def = typeof webhooksV1.WebhookServiceService;

function toWebhook(e: EndpointRecord): webhooksV1.Webhook {
  return messageFields(e, [
    "id",
    "url",
    "events",
    "status",
    "disabled_reason",
    "disabled_at",
    "created_at",
    "updated_at",
  ]);
}

function toDelivery(d: DeliveryRecord): webhooksV1.Delivery {
  return {
    ...messageFields(d, ["id", "webhook_id", "event", "status", "created_at", "completed_at", "event_id"]),
    attempts: d.attempts.map((a) =>
      messageFields(a, ["attempt", "attempted_at", "status_code", "latency_ms", "error", "response_excerpt"]),
    ),
    // While an attempt is under way the message is not waiting for a time: show none.
    next_attempt_at: d.status === "pending" && !d.lease_until ? (d.next_attempt_at ?? undefined) : undefined,
  };
}

export function webhookHandlers(deps: WebhookDeps): AsyncService<Def> {
  return {
    async listWebhooks(req) {
      return { webhooks: (await listWebhooks(deps, { organizationId: req.organization_id })).map(toWebhook) };
    },
    async getWebhook(req) {
      return {
        webhook: toWebhook(await getWebhook(deps, { organizationId: req.organization_id, webhookId: req.webhook_id })),
      };
    },
    async createWebhook(req) {
      const { endpoint, secret } = await createWebhook(deps, {
        organizationId: req.organization_id,
        url: req.url,
        events: req.events,
        secret: req.secret,
      });
      return { webhook: toWebhook(endpoint), secret };
    },
    async updateWebhook(req) {
      const endpoint = await updateWebhook(deps, {
        organizationId: req.organization_id,
        webhookId: req.webhook_id,
        url: req.url,
        events: req.events?.names,
        status: req.status,
      });
      return { webhook: toWebhook(endpoint) };
    },
    async deleteWebhook(req) {
      await deleteWebhook(deps, { organizationId: req.organization_id, webhookId: req.webhook_id });
      return {};
    },
    async listDeliveries(req) {
      const page = await listDeliveries(deps, {
        organizationId: req.organization_id,
        webhookId: req.webhook_id,
        limit: req.limit,
        cursor: req.cursor || undefined,
      });
      return {
        deliveries: page.deliveries.map(toDelivery),
        next_cursor: page.nextCursor ?? undefined,
        has_more: page.hasMore,
      };
    },
    async redeliverDelivery(req) {
      return {
        delivery: toDelivery(
          await redeliverDelivery(deps, {
            organizationId: req.organization_id,
            webhookId: req.webhook_id,
            deliveryId: req.delivery_id,
          }),
        ),
      };
    },
    async pingWebhook(req) {
      return {
        delivery: toDelivery(
          await pingWebhook(deps, { organizationId: req.organization_id, webhookId: req.webhook_id }),
        ),
      };
    },
  };
}
