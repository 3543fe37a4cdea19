// Wires the webhooks service: adapters in, gRPC out; it consumes the bus and runs the delivery
// worker. Used by the all-in-one launcher.
import { coreDeps, serveService, type RunningService, type ServiceBase } from "@verdict/runtime";
import { randomInt } from "node:crypto";
import { SecretBox } from "@verdict/kit";
import { webhooksV1 } from "@verdict/proto";
import { subscribeWebhookConsumers } from "./consumers.js";
import type { WebhookDeps } from "./deps.js";
import { DEFAULT_RETRY_SCHEDULE } from "./domain/schedule.js";
import { HttpSender, type Resolver, type Sender } from "./egress.js";
import { webhookHandlers } from "./grpc.js";
import { WebhookRepo } from "./repo.js";
import { DeliveryWorker } from "./worker.js";

export interface WebhookServiceOptions extends ServiceBase {
  /** 32 bytes: seals endpoint secrets at rest. */
  masterKey: Buffer;
  /** Seconds before each retry (default: about three days in nine steps). */
  retrySchedule?: number[];
  /** Deadline of one attempt, connection to last byte read. */
  timeoutMs?: number;
  allowHttp?: boolean;
  allowPrivate?: boolean;
  allowedHosts?: string[];
  pollIntervalMs?: number;
  /** Delivery attempts under way at once (default 8), and per organization (default 2). */
  concurrency?: number;
  orgConcurrency?: number;
  /** Webhooks one organization may register (default 20). */
  maxPerOrg?: number;
  /** Name resolution for deliveries (tests resolve names they control). */
  resolver?: Resolver;
  /** Replaces the HTTP egress altogether. */
  sender?: Sender;
}

export interface WebhookService extends RunningService {
  /**
   * Stops starting deliveries (attempts under way finish); what is due stays in the store for the
   * next process. Called first on shutdown, so a retry that falls due while the rest of the
   * process drains (the gateway waits out keep-alive connections) is left to the next start.
   */
  stopDelivering(): Promise<void>;
}

export const DEFAULT_TIMEOUT_MS = 10_000;
export const DEFAULT_MAX_PER_ORG = 20;

export async function startWebhookService(opts: WebhookServiceOptions): Promise<WebhookService> {
  const core = coreDeps(opts);
  const { outbox } = core;
  const repo = new WebhookRepo(opts.store, outbox);
  await repo.init();
  const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const allowPrivate = opts.allowPrivate ?? false;
  const deps: WebhookDeps = {
    repo,
    ...core,
    secrets: new SecretBox(opts.masterKey),
    sender:
      opts.sender ?? new HttpSender({ allowPrivate, timeoutMs, ...(opts.resolver ? { resolver: opts.resolver } : {}) }),
    egress: {
      allowHttp: opts.allowHttp ?? false,
      allowPrivate,
      ...(opts.allowedHosts?.length ? { allowedHosts: opts.allowedHosts } : {}),
    },
    retrySchedule: opts.retrySchedule ?? DEFAULT_RETRY_SCHEDULE,
    // An attempt's lease outlasts its deadline, so a live attempt is never taken over.
    leaseMs: timeoutMs + 30_000,
    random: () => randomInt(1_000_000) / 1_000_000,
    maxPerOrg: opts.maxPerOrg ?? DEFAULT_MAX_PER_ORG,
    // The worker is made next; nothing wakes it before it exists.
    wake: () => worker.wake(),
  };
  // One organization's endpoint that never answers holds at most orgConcurrency of the slots.
  const worker = new DeliveryWorker(deps, {
    concurrency: opts.concurrency ?? 8,
    perOrgConcurrency: opts.orgConcurrency ?? 2,
    pollIntervalMs: opts.pollIntervalMs ?? 1_000,
  });

  const subscriptions = await subscribeWebhookConsumers(deps, opts.bus);
  const stopDelivering = () => worker.stop();
  const service = await serveService(opts, "webhooks", webhooksV1.WebhookServiceService, webhookHandlers(deps), {
    outbox,
    beforeStop: () => Promise.all(subscriptions.map((s) => s.unsubscribe())),
    // Deliveries stop at once; gRPC calls in flight (a ping, a redeliver) finish meanwhile.
    drain: stopDelivering,
  });
  // Messages left by the last process (waiting retries, interrupted attempts) resume here.
  worker.start();
  opts.logger.info(
    {
      port: service.grpc.port,
      retry_schedule_s: deps.retrySchedule,
      timeout_ms: timeoutMs,
      allow_http: deps.egress.allowHttp,
      allow_private: allowPrivate,
    },
    "webhooks service listening",
  );
  return { ...service, stopDelivering };
}
