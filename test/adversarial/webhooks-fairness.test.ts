// One organization's webhooks must not hold up another's: organization A points its webhook
// at a host that accepts connections and never answers; organization B's delivery must still
// arrive promptly. And an organization cannot register webhooks without bound.
import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { startReceiver, type Receiver } from "../../services/webhooks/test/receiver.js";
import { Api, expectFieldError } from "../support/api.js";
import { startVerdict, type Verdict } from "../support/server.js";

const AWS_KEY = "AKIAZ7VQ3X4M2N8P5R6T";
const leaky = (ref: string) => ({
  repository: "acme/payments",
  ref,
  files: [{ path: "src/config.js", content: `const accessKey = "${AWS_KEY}";\n` }],
});
// Slow enough that A's hanging attempts outlast the test, unless per-organization limits apply.
const ENV = {
  VERDICT_WEBHOOK_ALLOW_HTTP: "true",
  VERDICT_WEBHOOK_ALLOW_PRIVATE: "true",
  VERDICT_WEBHOOK_TIMEOUT_MS: "60000",
  VERDICT_WEBHOOK_MAX_PER_ORG: "3",
};

let v: Verdict;
let operator: Api;
const hanging = new Set<ServerResponse>();
let hangingConnections = 0;
const tarpit = createServer((_req, res) => {
  // Reads the request, answers nothing, ever.
  hanging.add(res);
});
tarpit.on("connection", () => hangingConnections++);
let receiverB: Receiver;

async function organization(name: string): Promise<Api> {
  const res = await operator.post("/v1/organizations", { name });
  expect(res.status).toBe(201);
  return operator.withKey(res.body.api_key.key);
}

beforeAll(async () => {
  await new Promise<void>((res) => tarpit.listen(0, "127.0.0.1", () => res()));
  receiverB = await startReceiver();
  v = await startVerdict({ env: ENV });
  operator = new Api(v.url, v.bootstrapKey);
});
afterAll(async () => {
  // Let A's attempts fail at once, so the shutdown does not wait for their deadline.
  tarpit.closeAllConnections();
  await new Promise((res) => tarpit.close(res));
  await receiverB.close();
  await v.destroy();
});

describe("webhook delivery fairness", () => {
  it("delivers organization B's message promptly while organization A's endpoint hangs", async () => {
    const a = await organization("Tarpit Inc");
    const b = await organization("Prompt Ltd");
    const tarpitUrl = `http://127.0.0.1:${(tarpit.address() as AddressInfo).port}/hook`;
    expect((await a.post("/v1/webhooks", { url: tarpitUrl, events: ["evaluation.completed"] })).status).toBe(201);
    const hookB = await b.post("/v1/webhooks", { url: receiverB.url, events: ["evaluation.completed"] });
    expect(hookB.status).toBe(201);
    receiverB.secret = hookB.body.secret;

    // A queues more messages than the worker has slots, all to its hanging endpoint.
    for (let i = 0; i < 12; i++) expect((await a.post("/v1/evaluations", leaky(`a-${i}`))).status).toBe(201);
    const deadline = Date.now() + 10_000;
    while (hanging.size < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(hanging.size).toBeGreaterThanOrEqual(2);

    const sent = Date.now();
    const evalB = await b.post("/v1/evaluations", leaky("b-1"));
    expect(evalB.status).toBe(201);
    while (!receiverB.received.length && Date.now() - sent < 15_000) await new Promise((r) => setTimeout(r, 25));
    const waited = Date.now() - sent;
    expect(
      receiverB.received.map((m) => ({
        event: m.json.event,
        evaluation: m.json.data.evaluation_id ?? m.json.data.id,
        verified: m.verified,
      })),
    ).toEqual([{ event: "evaluation.completed", evaluation: evalB.body.id, verified: true }]);
    expect(waited).toBeLessThan(5_000);
    // A holds no more than its share of attempts at once (VERDICT_WEBHOOK_ORG_CONCURRENCY, 2).
    expect(hanging.size).toBe(2);
    expect(hangingConnections).toBe(2);
  });
});

describe("webhooks per organization", () => {
  it("refuses a webhook beyond VERDICT_WEBHOOK_MAX_PER_ORG with 422 naming the limit, and accepts one again after a delete", async () => {
    const c = await organization("Many Hooks");
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await c.post("/v1/webhooks", { url: `${receiverB.url}/c${i}`, events: ["evaluation.completed"] });
      expect(res.status).toBe(201);
      ids.push(res.body.id);
    }
    const over = await c.post("/v1/webhooks", { url: `${receiverB.url}/c3`, events: ["evaluation.completed"] });
    expectFieldError(over, 422, "url", "MAX_SIZE_EXCEEDED", { max: 3 });
    expect(over.body.details.errors[0].message).toContain("at most 3 webhooks");
    expect((await c.get("/v1/webhooks")).body.webhooks).toHaveLength(3);
    // Another organization's count is its own.
    expect(
      (
        await (
          await organization("Other")
        ).post("/v1/webhooks", { url: `${receiverB.url}/o`, events: ["evaluation.completed"] })
      ).status,
    ).toBe(201);
    expect((await c.delete(`/v1/webhooks/${ids[0]}`)).status).toBe(204);
    expect(
      (await c.post("/v1/webhooks", { url: `${receiverB.url}/c4`, events: ["evaluation.completed"] })).status,
    ).toBe(201);
  });
});
