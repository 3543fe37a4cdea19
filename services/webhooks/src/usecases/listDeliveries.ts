// The delivery log of an endpoint: newest message first, each with its attempts.
import { errors, isId } from "@verdict/kit";
import type { WebhookDeps } from "../deps.js";
import type { DeliveryRecord } from "../repo.js";
import { getWebhook } from "./getWebhook.js";

export const DEFAULT_PAGE = 20;
export const MAX_PAGE = 100;

export interface ListDeliveriesQuery {
  organizationId: string;
  webhookId: string;
  limit?: number;
  /** The last id of the previous page. */
  cursor?: string;
}

export async function listDeliveries(
  deps: WebhookDeps,
  q: ListDeliveriesQuery,
): Promise<{ deliveries: DeliveryRecord[]; nextCursor: string | null; hasMore: boolean }> {
  await getWebhook(deps, q);
  const limit = Math.min(Math.max(q.limit || DEFAULT_PAGE, 1), MAX_PAGE);
  if (q.cursor && !isId("msg", q.cursor))
    throw errors.unprocessable([
      { field: "cursor", code: "INVALID_FORMAT", message: "cursor must be a next_cursor returned by this API" },
    ]);
  const page = await deps.repo.deliveryPage(q.organizationId, q.webhookId, { limit: limit + 1, before: q.cursor });
  const hasMore = page.length > limit;
  const deliveries = page.slice(0, limit);
  return { deliveries, hasMore, nextCursor: hasMore ? deliveries.at(-1)!.id : null };
}
