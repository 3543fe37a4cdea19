// A real policy service for tests: embedded SQLite in memory, the in-process bus, gRPC on a
// free loopback port, and a client talking to it over the wire.
import { expect } from "@jest/globals";
import { InProcessBus } from "@verdict/bus";
import { createClient, createLogger, type Clock } from "@verdict/kit";
import { SERVICE_NAMES, policyV1 } from "@verdict/proto";
import { SqliteStore } from "@verdict/store";
import { startPolicyService, type PolicyService } from "../src/main.js";

export type PolicyClient = ReturnType<typeof createClient<typeof policyV1.PolicyServiceService>>;

export interface PolicyHarness {
  store: SqliteStore;
  bus: InProcessBus;
  service: PolicyService;
  address: string;
  client: PolicyClient;
  stop(): Promise<void>;
}

export async function startPolicyHarness(
  opts: { store?: SqliteStore; bus?: InProcessBus; clock?: Clock } = {},
): Promise<PolicyHarness> {
  const logger = createLogger("policy-test", "silent");
  const store = opts.store ?? new SqliteStore(":memory:");
  const bus = opts.bus ?? new InProcessBus(logger, 5);
  const service = await startPolicyService({
    store,
    bus,
    logger,
    host: "127.0.0.1",
    port: 0,
    ...(opts.clock ? { clock: opts.clock } : {}),
  });
  const address = `127.0.0.1:${service.grpc.port}`;
  const client = createClient(SERVICE_NAMES.policy, policyV1.PolicyServiceService, address);
  return {
    store,
    bus,
    service,
    address,
    client,
    async stop() {
      client.close();
      await service.stop();
      await bus.close();
      await store.close();
    },
  };
}

/** What a validation error's details hold for one field (a gRPC error matched with toMatchObject). */
export const fieldError = (field: string, code: string, message?: RegExp) => ({
  details: {
    errors: [expect.objectContaining({ field, code, ...(message ? { message: expect.stringMatching(message) } : {}) })],
  },
});
