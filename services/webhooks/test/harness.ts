// A real webhooks service for tests: embedded SQLite, the in-process bus, gRPC on a free
// loopback port, a client over the wire, and a retry schedule of seconds.
import { randomBytes } from "node:crypto";
import { InProcessBus } from "@verdict/bus";
import { Outbox } from "@verdict/outbox";
import { createClient, createLogger } from "@verdict/kit";
import { SERVICE_NAMES, webhooksV1 } from "@verdict/proto";
import { SqliteStore } from "@verdict/store";
import { startWebhookService, type WebhookService, type WebhookServiceOptions } from "../src/main.js";
import { WebhookRepo } from "../src/repo.js";

export type WebhookClient = ReturnType<typeof createClient<typeof webhooksV1.WebhookServiceService>>;

export interface WebhookHarness {
  store: SqliteStore;
  /** The service's repository on the same store: what is stored, without naming collections. */
  repo: WebhookRepo;
  bus: InProcessBus;
  masterKey: Buffer;
  service: WebhookService;
  client: WebhookClient;
  /** Stops every running instance only (the store and bus stay), as a crash or redeploy would. */
  stopService(): Promise<void>;
  /** Starts a new service instance on the same store and bus (running ones keep running). */
  restart(overrides?: Partial<WebhookServiceOptions>): Promise<void>;
  stop(): Promise<void>;
}

export async function startWebhookHarness(overrides: Partial<WebhookServiceOptions> = {}): Promise<WebhookHarness> {
  const logger = createLogger("webhooks-test", "silent");
  const store = new SqliteStore(":memory:");
  const bus = new InProcessBus(logger, 5);
  const masterKey = randomBytes(32);
  const options = (more: Partial<WebhookServiceOptions>): WebhookServiceOptions => ({
    store,
    bus,
    logger,
    host: "127.0.0.1",
    port: 0,
    masterKey,
    retrySchedule: [0.2, 0.2],
    allowHttp: true,
    allowPrivate: true,
    pollIntervalMs: 50,
    timeoutMs: 2_000,
    ...overrides,
    ...more,
  });
  // Every instance started and not yet stopped: a leaked one would keep its gRPC server and
  // worker alive (and deliver messages a test expects a restarted instance to deliver).
  const running: WebhookService[] = [];
  const clients: WebhookClient[] = [];
  const start = async (more: Partial<WebhookServiceOptions>) => {
    const service = await startWebhookService(options(more));
    running.push(service);
    const client = createClient(
      SERVICE_NAMES.webhooks,
      webhooksV1.WebhookServiceService,
      `127.0.0.1:${service.grpc.port}`,
    );
    clients.push(client);
    h.service = service;
    h.client = client;
  };
  const h: WebhookHarness = {
    store,
    // Reads only: its outbox never publishes.
    repo: new WebhookRepo(store, new Outbox({ bus, logger })),
    bus,
    masterKey,
    service: undefined as unknown as WebhookService,
    client: undefined as unknown as WebhookClient,
    async stopService() {
      while (clients.length) clients.pop()!.close();
      while (running.length) await running.pop()!.stop();
    },
    restart: (more = {}) => start(more),
    async stop() {
      await h.stopService();
      await bus.close();
      await store.close();
    },
  };
  await start({});
  return h;
}
