// Fault: the identity service stops (a restart, a pod replaced in a rolling upgrade) while keys
// are in use. A key the gateway verified a moment ago keeps working for
// VERDICT_AUTH_STALE_IF_ERROR_MS past its cache TTL; a key it never verified, a key revoked
// meanwhile, and any key once that window has passed get 503 SERVICE_UNAVAILABLE, never a stale
// 200. When identity is back, keys are verified again.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { Api } from "../support/api.js";
import { makeKey } from "../support/keys.js";
import { startStack, stopStack, type Stack } from "../support/stack.js";
import { sleep, until } from "./support.js";

const TTL_MS = 3_000;
const STALE_MS = 30_000;

let stack: Stack;
let api: Api;
let dataDir: string;
const operatorKey = makeKey();

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), "verdict-fault-identity-"));
  stack = await startStack(
    dataDir,
    { VERDICT_BOOTSTRAP_API_KEY: operatorKey },
    {
      gateway: {
        VERDICT_AUTH_CACHE_TTL_MS: String(TTL_MS),
        VERDICT_AUTH_STALE_IF_ERROR_MS: String(STALE_MS),
      },
    },
  );
  api = new Api(`http://127.0.0.1:${stack.services.gateway.ready.http_port}`, operatorKey);
}, 120_000);
afterAll(async () => {
  if (stack) await stopStack(stack);
  rmSync(dataDir, { recursive: true, force: true });
}, 120_000);

function expectUnavailable(res: { status: number; body: any }) {
  expect(res.status).toBe(503);
  expect(res.body).toMatchObject({ error: "service_unavailable", code: "SERVICE_UNAVAILABLE" });
}

describe("the identity service stopped while keys are in use", () => {
  it("answers keys verified a moment ago for a bounded time, and no other key", async () => {
    const createKey = async (name: string) => {
      const res = await api.post("/v1/api-keys", { name, scopes: ["read:evaluations"] });
      expect(res.status).toBe(201);
      return res.body as { id: string; key: string };
    };
    const unused = await createKey("never used at this gateway");
    const revoked = await createKey("revoked before the stop");
    // Verified (and cached) once, then revoked: the revocation drops what the gateway cached.
    expect((await api.get("/v1/health/auth", { key: revoked.key })).status).toBe(200);
    expect((await api.delete(`/v1/api-keys/${revoked.id}`)).status).toBe(204);
    await until("the revoked key to be refused", async () => {
      return (await api.get("/v1/health/auth", { key: revoked.key })).status === 401;
    });

    const before = await api.get("/v1/health/auth");
    expect(before.status).toBe(200);
    const verifiedAt = Date.now();
    const identity = stack.services.identity;
    const identityPort = identity.ready.grpc_port!;
    await identity.stop();
    await sleep(TTL_MS + 200);

    // Past its TTL: identity cannot answer, so the verification of a moment ago does.
    const stale = await api.get("/v1/health/auth");
    expect(stale.status).toBe(200);
    expect(stale.body).toEqual(before.body);
    // The gateway's warning (its output reaches this process after the answer, through a pipe).
    const staleLines = () =>
      stack.services.gateway.output().split("its verification of a moment ago answers").length - 1;
    await until("the gateway's warning", async () => staleLines() === 1, 10_000);
    // The key's next requests, for a few seconds (the TTL here), are answered without asking
    // identity again (each would wait out its deadline, and warn again).
    expect((await api.get("/v1/health/auth")).status).toBe(200);
    await sleep(500);
    expect(staleLines()).toBe(1);
    // A key this gateway never verified, and the revoked one, get 503, never a stale 200.
    expectUnavailable(await api.get("/v1/health/auth", { key: unused.key }));
    expectUnavailable(await api.get("/v1/health/auth", { key: revoked.key }));
    const gatewayLog = stack.services.gateway.output();
    for (const key of [operatorKey, unused.key, revoked.key]) expect(gatewayLog).not.toContain(key);

    // Once the window has passed, the key gets 503 too.
    await sleep(Math.max(0, verifiedAt + TTL_MS + STALE_MS + 500 - Date.now()));
    expectUnavailable(await api.get("/v1/health/auth"));

    // Identity back on its address: keys are verified again.
    stack.services.identity = await stack.start("identity", { VERDICT_GRPC_PORT: String(identityPort) });
    await until("the operator key to be verified again", async () => {
      return (await api.get("/v1/health/auth")).status === 200;
    });
    expect((await api.get("/v1/health/auth", { key: unused.key })).status).toBe(200);
    expect((await api.get("/v1/health/auth", { key: revoked.key })).status).toBe(401);
  }, 180_000);
});
