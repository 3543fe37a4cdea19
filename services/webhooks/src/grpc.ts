// gRPC handlers: map proto <-> use cases, nothing else.
import { commandOf, messageFields, type AsyncService } from "@verdict/kit";
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
      return { webhooks: (await listWebhooks(deps, commandOf(req))).map(toWebhook) };
    },
    async getWebhook(req) {
      return { webhook: toWebhook(await getWebhook(deps, commandOf(req))) };
    },
    async createWebhook(req) {
      const { endpoint, secret } = await createWebhook(deps, commandOf(req));
      return { webhook: toWebhook(endpoint), secret };
    },
    async updateWebhook(req) {
      // The list is wrapped on the wire so that "not changed" (absent) and "none" differ.
      return { webhook: toWebhook(await updateWebhook(deps, { ...commandOf(req), events: req.events?.names })) };
    },
    async deleteWebhook(req) {
      await deleteWebhook(deps, commandOf(req));
      return {};
    },
    async listDeliveries(req) {
      const page = await listDeliveries(deps, commandOf(req));
      return {
        deliveries: page.deliveries.map(toDelivery),
        next_cursor: page.nextCursor ?? undefined,
        has_more: page.hasMore,
      };
    },
    async redeliverDelivery(req) {
      return { delivery: toDelivery(await redeliverDelivery(deps, commandOf(req))) };
    },
    async pingWebhook(req) {
      return { delivery: toDelivery(await pingWebhook(deps, commandOf(req))) };
    },
  };
}
