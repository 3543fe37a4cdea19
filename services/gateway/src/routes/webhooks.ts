import type { webhooksV1 } from "@verdict/proto";
import { route } from "../http/route.js";
import { IdParam } from "../http/schemas.js";
import {
  CreatedWebhookSchema,
  CreateWebhookSchema,
  DeliveryListSchema,
  DeliveryParams,
  DeliverySchema,
  ListDeliveriesQuery,
  UpdateWebhookSchema,
  WebhookListSchema,
  WebhookSchema,
} from "../http/webhookSchemas.js";
import { noContent } from "./common.js";

// proto -> REST JSON: absent optional fields become explicit nulls.
export function webhookJson(w: webhooksV1.Webhook) {
  return {
    id: w.id,
    url: w.url,
    events: w.events,
    status: w.status,
    disabled_reason: w.disabled_reason ?? null,
    disabled_at: w.disabled_at ?? null,
    created_at: w.created_at,
    updated_at: w.updated_at,
  };
}

export function deliveryJson(d: webhooksV1.Delivery) {
  return {
    id: d.id,
    webhook_id: d.webhook_id,
    event: d.event,
    event_id: d.event_id ?? null,
    status: d.status,
    attempts: d.attempts.map((a) => ({
      attempt: a.attempt,
      attempted_at: a.attempted_at,
      status_code: a.status_code ?? null,
      latency_ms: a.latency_ms,
      error: a.error ?? null,
      response_excerpt: a.response_excerpt ?? null,
    })),
    next_attempt_at: d.next_attempt_at ?? null,
    created_at: d.created_at,
    completed_at: d.completed_at ?? null,
  };
}

const WebhookParam = IdParam("webhook_id", "wh");

export const webhookRoutes = [
  route({
    method: "get",
    path: "/v1/webhooks",
    operationId: "listWebhooks",
    summary: "List webhooks (secrets are never shown)",
    tag: "Webhooks",
    access: { kind: "scope", scope: "read:org" },
    rateClass: "reads",
    responses: { 200: { description: "Webhooks", schema: WebhookListSchema } },
    handler: async ({ principal, clients }) => {
      const res = await clients.webhooks.listWebhooks({ organization_id: principal!.organizationId });
      return { status: 200, body: { webhooks: res.webhooks.map(webhookJson) } };
    },
  }),
  route({
    method: "post",
    path: "/v1/webhooks",
    operationId: "createWebhook",
    summary: "Register a webhook; its signing secret is answered once",
    tag: "Webhooks",
    access: { kind: "scope", scope: "write:org" },
    rateClass: "writes",
    body: CreateWebhookSchema,
    responses: { 201: { description: "The webhook, with its secret (shown once)", schema: CreatedWebhookSchema } },
    errors: [422],
    handler: async ({ body, principal, clients }) => {
      const res = await clients.webhooks.createWebhook({
        organization_id: principal!.organizationId,
        url: body.url,
        events: body.events,
        secret: body.secret ?? "",
      });
      return { status: 201, body: { ...webhookJson(res.webhook!), secret: res.secret } };
    },
  }),
  route({
    method: "get",
    path: "/v1/webhooks/:webhook_id",
    operationId: "getWebhook",
    summary: "Get a webhook (status, and why it was disabled)",
    tag: "Webhooks",
    access: { kind: "scope", scope: "read:org" },
    rateClass: "reads",
    params: WebhookParam,
    responses: { 200: { description: "The webhook", schema: WebhookSchema } },
    handler: async ({ params, principal, clients }) => {
      const res = await clients.webhooks.getWebhook({
        organization_id: principal!.organizationId,
        webhook_id: params.webhook_id,
      });
      return { status: 200, body: webhookJson(res.webhook!) };
    },
  }),
  route({
    method: "patch",
    path: "/v1/webhooks/:webhook_id",
    operationId: "updateWebhook",
    summary: "Change a webhook's URL or events, or re-enable (status active) or disable it",
    tag: "Webhooks",
    access: { kind: "scope", scope: "write:org" },
    rateClass: "writes",
    params: WebhookParam,
    body: UpdateWebhookSchema,
    responses: { 200: { description: "The webhook", schema: WebhookSchema } },
    errors: [422],
    handler: async ({ params, body, principal, clients }) => {
      const res = await clients.webhooks.updateWebhook({
        organization_id: principal!.organizationId,
        webhook_id: params.webhook_id,
        url: body.url,
        events: body.events ? { names: body.events } : undefined,
        status: body.status,
      });
      return { status: 200, body: webhookJson(res.webhook!) };
    },
  }),
  route({
    method: "delete",
    path: "/v1/webhooks/:webhook_id",
    operationId: "deleteWebhook",
    summary: "Delete a webhook and its delivery log",
    tag: "Webhooks",
    access: { kind: "scope", scope: "write:org" },
    rateClass: "writes",
    params: WebhookParam,
    responses: noContent,
    handler: async ({ params, principal, clients }) => {
      await clients.webhooks.deleteWebhook({
        organization_id: principal!.organizationId,
        webhook_id: params.webhook_id,
      });
      return { status: 204 };
    },
  }),
  route({
    method: "get",
    path: "/v1/webhooks/:webhook_id/deliveries",
    operationId: "listWebhookDeliveries",
    summary: "The webhook's delivery log, newest first: attempts, status codes, latency, response excerpts",
    tag: "Webhooks",
    access: { kind: "scope", scope: "read:org" },
    rateClass: "reads",
    params: WebhookParam,
    query: ListDeliveriesQuery,
    responses: { 200: { description: "Deliveries", schema: DeliveryListSchema } },
    handler: async ({ params, query, principal, clients }) => {
      const res = await clients.webhooks.listDeliveries({
        organization_id: principal!.organizationId,
        webhook_id: params.webhook_id,
        limit: query.limit,
        cursor: query.cursor ?? "",
      });
      return {
        status: 200,
        body: {
          deliveries: res.deliveries.map(deliveryJson),
          pagination: { next_cursor: res.next_cursor ?? null, has_more: res.has_more },
        },
      };
    },
  }),
  route({
    method: "post",
    path: "/v1/webhooks/:webhook_id/deliveries/:delivery_id/redeliver",
    operationId: "redeliverWebhookDelivery",
    summary: "Send a logged message again (same webhook-id, fresh retry schedule)",
    tag: "Webhooks",
    access: { kind: "scope", scope: "write:org" },
    rateClass: "writes",
    params: DeliveryParams,
    responses: { 202: { description: "Queued", schema: DeliverySchema } },
    errors: [422],
    handler: async ({ params, principal, clients }) => {
      const res = await clients.webhooks.redeliverDelivery({
        organization_id: principal!.organizationId,
        webhook_id: params.webhook_id,
        delivery_id: params.delivery_id,
      });
      return { status: 202, body: deliveryJson(res.delivery!) };
    },
  }),
  route({
    method: "post",
    path: "/v1/webhooks/:webhook_id/ping",
    operationId: "pingWebhook",
    summary: "Queue a signed webhook.ping test message",
    tag: "Webhooks",
    access: { kind: "scope", scope: "write:org" },
    rateClass: "writes",
    params: WebhookParam,
    responses: { 202: { description: "Queued; follow it in the delivery log", schema: DeliverySchema } },
    errors: [422],
    handler: async ({ params, principal, clients }) => {
      const res = await clients.webhooks.pingWebhook({
        organization_id: principal!.organizationId,
        webhook_id: params.webhook_id,
      });
      return { status: 202, body: deliveryJson(res.delivery!) };
    },
  }),
];
