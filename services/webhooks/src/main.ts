// Wires the webhooks service: adapters in, gRPC out; it consumes the bus and runs the delivery
// worker. Used by the all-in-one launcher.
import { randomInt } from "node:crypto";
import { TOPICS, type Bus, type Subscription } from "@verdict/bus";
import { startGrpcServer, systemClock, type Clock, type GrpcServerHandle, type Logger } from "@verdict/kit";
import { SERVICE_NAMES, reflectionDefinition, webhooksV1 } from "@verdict/proto";
import type { Store } from "@verdict/store";
import type { WebhookDeps } from "./deps.js";
import { evaluationCompletedData, policyViolationData, type EvaluationCompletedEvent, type PolicyViolationEvent } from "./domain/events.js";
import { DEFAULT_RETRY_SCHEDULE } from "./domain/schedule.js";
import { HttpSender, type Resolver, type Sender } from "./egress.js";
import { webhookHandlers } from "./grpc.js";
import { WebhookRepo } from "./repo.js";
import { SecretBox } from "./secretBox.js";
import { enqueueEvent } from "./usecases/enqueue.js";
import { DeliveryWorker } from "./worker.js";

export interface WebhookServiceOptions {
  store: Store;
  bus: Bus;
  logger: Logger;
  host: string;
  port: number;
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
  clock?: Clock;
  /** Name resolution for deliveries (tests resolve names they control). */
  resolver?: Resolver;
  /** Replaces the HTTP egress altogether. */
  sender?: Sender;
}

export interface WebhookService {
  grpc: GrpcServerHandle;
  stop(): Promise<void>;
}

export const DEFAULT_TIMEOUT_MS = 10_000;
export const DEFAULT_MAX_PER_ORG = 20;

export async function startWebhookService(opts: WebhookServiceOptions): Promise<WebhookService> {
  const repo = new WebhookRepo(opts.store);
  await repo.init();
  const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const allowPrivate = opts.allowPrivate ?? false;
  const deps: WebhookDeps = {
    repo,
    bus: opts.bus,
    clock: opts.clock ?? systemClock,
    logger: opts.logger,
    secrets: new SecretBox(opts.masterKey),
    sender: opts.sender ?? new HttpSender({ allowPrivate, timeoutMs, ...(opts.resolver ? { resolver: opts.resolver } : {}) }),
    egress: { allowHttp: opts.allowHttp ?? false, allowPrivate, ...(opts.allowedHosts?.length ? { allowedHosts: opts.allowedHosts } : {}) },
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

  // One consumer group for all instances: each event makes its messages once (and the unique
  // dedupe key makes a redelivered event harmless).
  const subscriptions: Subscription[] = [
    await opts.bus.subscribe<EvaluationCompletedEvent>(TOPICS.evaluationCompleted, "webhooks", async (e) => {
      await enqueueEvent(deps, { event: "evaluation.completed", eventId: e.id, organizationId: e.data?.organization_id, time: e.time, data: evaluationCompletedData(e.data) });
    }),
    await opts.bus.subscribe<PolicyViolationEvent>(TOPICS.policyViolation, "webhooks", async (e) => {
      await enqueueEvent(deps, { event: "policy.violation", eventId: e.id, organizationId: e.data?.organization_id, time: e.time, data: policyViolationData(e.data) });
    }),
  ];
  const unsubscribe = () => Promise.all(subscriptions.map((s) => s.unsubscribe()));
  let grpc: GrpcServerHandle;
  try {
    grpc = await startGrpcServer({
      host: opts.host,
      port: opts.port,
      logger: opts.logger,
      services: [{ name: SERVICE_NAMES.webhooks, definition: webhooksV1.WebhookServiceService, implementation: webhookHandlers(deps) }],
      reflection: reflectionDefinition("webhooks"),
    });
  } catch (err) {
    await unsubscribe();
    throw err;
  }
  // Messages left by the last process (waiting retries, interrupted attempts) resume here.
  worker.start();
  opts.logger.info(
    { port: grpc.port, retry_schedule_s: deps.retrySchedule, timeout_ms: timeoutMs, allow_http: deps.egress.allowHttp, allow_private: allowPrivate },
    "webhooks service listening",
  );
  return {
    grpc,
    async stop() {
      await unsubscribe();
      await grpc.stop();
      await worker.stop();
    },
  };
}
