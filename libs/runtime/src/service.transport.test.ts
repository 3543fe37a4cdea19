// The order every service stops in (serveService / stopService), watched from outside: the
// gRPC server still serves while consumers stop, has drained before the outbox stops, and what
// the service opened is released last; a server that cannot take its port undoes the rest.
import { createServer } from "node:net";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { InProcessBus } from "@verdict/bus";
import { createLogger, type AsyncService } from "@verdict/kit";
import { policyV1 } from "@verdict/proto";
import { SqliteStore } from "@verdict/store";
import { grpcHealth } from "../../../test/support/grpc.js";
import { serveService, type ServiceBase, type ServiceStopping } from "./service.js";

const POLICY = "verdict.policy.v1.PolicyService";
// Lifecycle only: no method is called, so the service serves none (health and reflection are there).
const noMethods = {} as AsyncService<typeof policyV1.PolicyServiceService>;

const logger = createLogger("service-test", "silent");
const store = new SqliteStore(":memory:");
const bus = new InProcessBus(logger, 5);
const base: ServiceBase = { store, bus, logger, host: "127.0.0.1", port: 0 };
afterAll(async () => {
  await bus.close();
  await store.close();
});

/** Hooks that record the order they run in and whether the server answered health checks then. */
function recorder(port: () => number) {
  const steps: string[] = [];
  const serving = async () =>
    grpcHealth(port(), POLICY).then(
      (status) => status,
      () => "unreachable",
    );
  const stopping: ServiceStopping = {
    outbox: {
      start: () => void steps.push("outbox.start"),
      stop: async () => void steps.push(`outbox.stop (server ${await serving()})`),
    },
    beforeStop: async () => void steps.push(`beforeStop (server ${await serving()})`),
    drain: async () => void steps.push("drain"),
    release: async () => void steps.push("release"),
  };
  return { steps, stopping };
}

describe("serveService", () => {
  it("serves, starts the outbox, and stops consumers, the server, the outbox and then the rest", async () => {
    let port = 0;
    const { steps, stopping } = recorder(() => port);
    const service = await serveService(base, "policy", policyV1.PolicyServiceService, noMethods, stopping);
    port = service.grpc.port;
    expect(await grpcHealth(port, POLICY)).toBe("SERVING");
    expect(steps).toEqual(["outbox.start"]);
    await service.stop();
    expect(steps).toEqual([
      "outbox.start",
      "drain",
      "beforeStop (server SERVING)",
      "outbox.stop (server unreachable)",
      "release",
    ]);
  });

  describe("when the port is taken", () => {
    // Holds the port; whoever connects is hung up on (a health check gets no answer).
    const taken = createServer((socket) => socket.destroy());
    beforeAll(() => new Promise<void>((ok) => taken.listen(0, "127.0.0.1", ok)));
    afterAll(() => new Promise<void>((ok) => taken.close(() => ok())));

    it("undoes what the service started, never starts the outbox, and throws", async () => {
      const port = (taken.address() as AddressInfo).port;
      const { steps, stopping } = recorder(() => port);
      await expect(
        serveService({ ...base, port }, "policy", policyV1.PolicyServiceService, noMethods, stopping),
      ).rejects.toThrow(/No address added/);
      expect(steps).toEqual([
        "drain",
        "beforeStop (server unreachable)",
        "outbox.stop (server unreachable)",
        "release",
      ]);
    });
  });
});
