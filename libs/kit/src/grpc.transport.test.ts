// createClient's idempotent methods over real gRPC: a call made while the service cannot be
// reached (a pod replaced in a rolling upgrade) waits for it up to its deadline, where any other
// call fails at once with SERVICE_UNAVAILABLE.
import { afterEach, describe, expect, it } from "@jest/globals";
import { createServer } from "node:net";
import { service as healthService } from "grpc-health-check";
import { AppError } from "./errors.js";
import { createClient, startGrpcServer, type GrpcServerHandle } from "./grpc.js";
import { createLogger } from "./logger.js";

const logger = createLogger("grpc-test", "silent");

/** A port nothing listens on (yet). */
async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((r) => probe.listen(0, "127.0.0.1", r));
  const { port } = probe.address() as { port: number };
  await new Promise((r) => probe.close(r));
  return port;
}

/** Every gRPC server answers grpc.health.v1.Health/Check: the service used here. */
const start = (port: number) => startGrpcServer({ host: "127.0.0.1", port, services: [], logger });
type Health = { Check(req: { service: string }): Promise<{ status?: string | number }> };
const client = (port: number, idempotent: boolean) =>
  createClient("grpc.health.v1.Health", healthService as never, `127.0.0.1:${port}`, {
    timeoutMs: 10_000,
    ...(idempotent ? { idempotent: ["Check"] as never } : {}),
  }) as unknown as Health & { close(): void };

const servers: GrpcServerHandle[] = [];
const clients: { close(): void }[] = [];
afterEach(async () => {
  for (const c of clients.splice(0)) c.close();
  for (const s of servers.splice(0)) await s.stop(100);
});

describe("createClient: idempotent methods", () => {
  it("a call to a service that cannot be reached fails at once, unless its method is idempotent", async () => {
    const port = await freePort();
    const plain = client(port, false);
    clients.push(plain);
    const t0 = Date.now();
    const err = await plain.Check({ service: "" }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).httpStatus).toBe(503);
    expect((err as AppError).code).toBe("SERVICE_UNAVAILABLE");
    expect((err as AppError).message).toBe("A Verdict service could not be reached; retry with backoff");
    expect(Date.now() - t0).toBeLessThan(5_000);

    // The same call with the method idempotent, and the service up 1.5 s later: it is answered.
    const waiting = client(port, true);
    clients.push(waiting);
    const answer = waiting.Check({ service: "" });
    await new Promise((r) => setTimeout(r, 1_500));
    servers.push(await start(port));
    await expect(answer).resolves.toEqual(expect.objectContaining({ status: expect.anything() }));
  });

  it("calls through a server's replacement on the same address all succeed when idempotent", async () => {
    const port = await freePort();
    servers.push(await start(port));
    const idem = client(port, true);
    const plain = client(port, false);
    clients.push(idem, plain);
    await idem.Check({ service: "" });
    await plain.Check({ service: "" });

    // The first server stops (what SIGTERM does); its replacement listens 800 ms later.
    await servers.shift()!.stop(100);
    const during = [idem.Check({ service: "" }), idem.Check({ service: "" })];
    const plainDuring = plain.Check({ service: "" }).then(
      () => "answered",
      (e: unknown) => (e as AppError).code,
    );
    await new Promise((r) => setTimeout(r, 800));
    servers.push(await start(port));
    await expect(Promise.all(during)).resolves.toHaveLength(2);
    // Without the option the same moment is a 503: what the gateway answered in a rolling upgrade.
    await expect(plainDuring).resolves.toBe("SERVICE_UNAVAILABLE");
  });
});
