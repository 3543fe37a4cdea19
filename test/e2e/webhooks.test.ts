// Webhooks against the real all-in-one process: real receivers on 127.0.0.1 verify every
// message with the standardwebhooks library; retries, a restart mid-retry, 410, the delivery
// log, redelivery, ping, tenancy and the SSRF rules of an instance that allows no private targets.
import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "@jest/globals";
import { startReceiver, type Receiver, type Responder } from "../../services/webhooks/test/receiver.js";
import { Api, expectError, expectFieldError } from "../support/api.js";
import { eventually as retry } from "../support/eventually.js";
import { holdIdleConnection } from "../support/keepalive.js";
import { makeKey } from "../support/keys.js";
import { startVerdict, TARGET, type Verdict } from "../support/server.js";

const AWS_KEY = "AKIAZ7VQ3X4M2N8P5R6T";
const leaky = {
  repository: "acme/payments",
  ref: "feature/x",
  files: [{ path: "src/config.js", content: `const accessKey = "${AWS_KEY}";\n`, status: "modified" }],
};
// Development settings: receivers on 127.0.0.1 over http; retries 3 s apart (±20%), so a
// restart fits between two attempts.
const DEV = {
  VERDICT_WEBHOOK_ALLOW_HTTP: "true",
  VERDICT_WEBHOOK_ALLOW_PRIVATE: "true",
  VERDICT_WEBHOOK_RETRY_SCHEDULE: "3,3",
};

let v: Verdict;
let api: Api;
const receivers: Receiver[] = [];

beforeAll(async () => {
  v = await startVerdict({ env: DEV });
  api = new Api(v.url, v.bootstrapKey);
});
afterAll(async () => v.destroy());
afterEach(async () => {
  // A closed receiver's port may be reused by the next test's receiver: remove its webhooks.
  for (const w of (await api.get("/v1/webhooks")).body.webhooks) await api.delete(`/v1/webhooks/${w.id}`);
  while (receivers.length) await receivers.pop()!.close();
});

async function receiver(respond?: Responder): Promise<Receiver> {
  const r = await startReceiver(respond);
  receivers.push(r);
  return r;
}

async function register(r: Receiver, events = ["evaluation.completed", "policy.violation"], client = api) {
  const res = await client.post("/v1/webhooks", { url: r.url, events });
  expect(res.status).toBe(201);
  r.secret = res.body.secret;
  return res.body as { id: string; secret: string };
}

// Over real HTTP with the delivery worker's polling: up to 30 s, checked every 100 ms.
const eventually = (assertion: () => Promise<void> | void) => retry(assertion, 30_000, 100);

describe("registering webhooks", () => {
  it("answers the secret once, and never lists it", async () => {
    const r = await receiver();
    const created = await api.post("/v1/webhooks", { url: r.url, events: ["policy.violation"] });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      id: expect.stringMatching(/^wh_/),
      url: r.url,
      events: ["policy.violation"],
      status: "active",
      disabled_reason: null,
    });
    expect(created.body.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const list = await api.get("/v1/webhooks");
    expect(list.status).toBe(200);
    expect(list.body.webhooks.map((w: { id: string }) => w.id)).toContain(created.body.id);
    expect(list.text).not.toContain("whsec_");
    const one = await api.get(`/v1/webhooks/${created.body.id}`);
    expect(one.body).toEqual(list.body.webhooks.find((w: { id: string }) => w.id === created.body.id));
    expect(one.text).not.toContain(created.body.secret);
    expect((await api.delete(`/v1/webhooks/${created.body.id}`)).status).toBe(204);
    expectError(await api.get(`/v1/webhooks/${created.body.id}`), 404, "not_found", "RESOURCE_NOT_FOUND");
  });

  it("takes a secret in the Standard Webhooks form", async () => {
    const secret = `whsec_${Buffer.alloc(32, 5).toString("base64")}`;
    const res = await api.post("/v1/webhooks", {
      url: "https://ci.example.com/hook",
      events: ["evaluation.completed"],
      secret,
    });
    expect(res.status).toBe(201);
    expect(res.body.secret).toBe(secret);
    await api.delete(`/v1/webhooks/${res.body.id}`);
  });

  it("rejects unknown events, bad secrets and missing fields with field paths", async () => {
    expectFieldError(
      await api.post("/v1/webhooks", { url: "https://ci.example.com/h", events: ["evaluation.started"] }),
      400,
      "events[0]",
      "INVALID_ENUM",
    );
    expectFieldError(await api.post("/v1/webhooks", { events: ["policy.violation"] }), 400, "url", "REQUIRED");
    expectFieldError(
      await api.post("/v1/webhooks", { url: "https://ci.example.com/h", events: [] }),
      400,
      "events",
      "MIN_SIZE_REQUIRED",
    );
    expectFieldError(
      await api.post("/v1/webhooks", {
        url: "https://ci.example.com/h",
        events: ["policy.violation"],
        secret: "hunter2",
      }),
      400,
      "secret",
      "INVALID_FORMAT",
    );
    expectFieldError(
      await api.post("/v1/webhooks", {
        url: "https://ci.example.com/h",
        events: ["policy.violation"],
        secret: `whsec_${Buffer.alloc(8).toString("base64")}`,
      }),
      422,
      "secret",
      "INVALID_FORMAT",
    );
    expectFieldError(
      await api.post("/v1/webhooks", { url: "https://ci.example.com/h", events: ["policy.violation"], extra: 1 }),
      400,
      "extra",
      "INVALID_FORMAT",
    );
  });

  it("needs read:org to read and write:org to change", async () => {
    const key = (await api.post("/v1/api-keys", { name: "reader", scopes: ["read:org"] })).body.key as string;
    const reader = api.withKey(key);
    expect((await reader.get("/v1/webhooks")).status).toBe(200);
    expectError(
      await reader.post("/v1/webhooks", { url: "https://ci.example.com/h", events: ["policy.violation"] }),
      403,
      "forbidden",
      "AUTH_INSUFFICIENT_SCOPE",
    );
  });
});

describe("deliveries", () => {
  it("sends a violating evaluation's messages, signed so that standardwebhooks verifies them", async () => {
    const r = await receiver();
    const wh = await register(r);
    const evaluation = await api.post("/v1/evaluations", leaky);
    expect(evaluation.body.passed).toBe(false);
    await eventually(() =>
      expect(r.received.map((x) => x.json.event).sort()).toEqual(["evaluation.completed", "policy.violation"]),
    );
    expect(r.received.every((x) => x.verified)).toBe(true);
    const violation = r.received.find((x) => x.json.event === "policy.violation")!;
    expect(violation.json.data).toMatchObject({
      evaluation_id: evaluation.body.id,
      repository: "acme/payments",
      violation: { id: evaluation.body.violations[0].id, policy_id: "aws-credentials", line: 1 },
    });
    // the secret never leaves whole
    expect(violation.body).not.toContain(AWS_KEY);
    expect(violation.json.data.violation.code_snippet).toContain("AKIA");
    const completed = r.received.find((x) => x.json.event === "evaluation.completed")!;
    expect(completed.json).toMatchObject({
      id: completed.headers["webhook-id"],
      data: { evaluation_id: evaluation.body.id, passed: false, status: "completed", summary: evaluation.body.summary },
    });
    expect(Date.parse(completed.json.timestamp)).not.toBeNaN();
    // and the log says so
    await eventually(async () => {
      const log = await api.get(`/v1/webhooks/${wh.id}/deliveries`);
      expect(log.status).toBe(200);
      expect(log.body.deliveries).toHaveLength(2);
      for (const d of log.body.deliveries)
        expect(d).toMatchObject({
          status: "succeeded",
          attempts: [{ attempt: 1, status_code: 200, response_excerpt: "ok", error: null }],
        });
    });
  });

  it("delivers on the third attempt, with the same webhook-id, to a receiver that failed twice", async () => {
    const r = await receiver((n) => (n <= 2 ? { status: 503, body: "not yet" } : { status: 200, body: "got it" }));
    const wh = await register(r, ["evaluation.completed"]);
    await api.post("/v1/evaluations", leaky);
    await eventually(() => expect(r.received).toHaveLength(3));
    expect(new Set(r.received.map((x) => x.headers["webhook-id"])).size).toBe(1);
    expect(r.received.every((x) => x.verified)).toBe(true);
    await eventually(async () => {
      const [d] = (await api.get(`/v1/webhooks/${wh.id}/deliveries`)).body.deliveries;
      expect(d).toMatchObject({ id: r.received[0]!.headers["webhook-id"], status: "succeeded", next_attempt_at: null });
      expect(d.attempts.map((a: { status_code: number }) => a.status_code)).toEqual([503, 503, 200]);
      expect(d.attempts[0].response_excerpt).toBe("not yet");
      expect(d.attempts[2].latency_ms).toBeGreaterThanOrEqual(0);
    });
  });

  it("pings, and redelivers a logged message with the same id", async () => {
    const r = await receiver();
    const wh = await register(r, ["policy.violation"]);
    const ping = await api.post(`/v1/webhooks/${wh.id}/ping`);
    expect(ping.status).toBe(202);
    expect(ping.body).toMatchObject({ id: expect.stringMatching(/^msg_/), event: "webhook.ping", status: "pending" });
    await eventually(() => expect(r.received).toHaveLength(1));
    expect(r.received[0]!).toMatchObject({
      verified: true,
      json: { event: "webhook.ping", id: ping.body.id, data: { webhook_id: wh.id } },
    });
    await eventually(async () =>
      expect((await api.get(`/v1/webhooks/${wh.id}/deliveries`)).body.deliveries[0].status).toBe("succeeded"),
    );
    const again = await api.post(`/v1/webhooks/${wh.id}/deliveries/${ping.body.id}/redeliver`);
    expect(again.status).toBe(202);
    await eventually(() => expect(r.received).toHaveLength(2));
    expect(r.received[1]!.headers["webhook-id"]).toBe(ping.body.id);
    expect(r.received[1]!.verified).toBe(true);
    expectError(
      await api.post(`/v1/webhooks/${wh.id}/deliveries/msg_01jd0000000000000000000000/redeliver`),
      404,
      "not_found",
      "RESOURCE_NOT_FOUND",
    );
  });

  it("disables a webhook that answers 410 Gone, and says why", async () => {
    const r = await receiver(() => ({ status: 410 }));
    const wh = await register(r);
    await api.post(`/v1/webhooks/${wh.id}/ping`);
    await eventually(async () =>
      expect((await api.get(`/v1/webhooks/${wh.id}`)).body).toMatchObject({
        status: "disabled",
        disabled_reason: "The endpoint answered 410 Gone",
      }),
    );
    expect((await api.get(`/v1/webhooks/${wh.id}`)).body.disabled_at).not.toBeNull();
    expectFieldError(await api.post(`/v1/webhooks/${wh.id}/ping`), 422, "webhook_id", "INVALID_FORMAT");
    await api.post("/v1/evaluations", leaky);
    await new Promise((res) => setTimeout(res, 500));
    expect(r.received).toHaveLength(1);
    // fixed on the receiver's side: re-enable it
    r.respond = () => ({ status: 200 });
    const enabled = await api.patch(`/v1/webhooks/${wh.id}`, { status: "active" });
    expect(enabled.status).toBe(200);
    expect(enabled.body).toMatchObject({ status: "active", disabled_reason: null, disabled_at: null });
    expect((await api.post(`/v1/webhooks/${wh.id}/ping`)).status).toBe(202);
    await eventually(() => expect(r.received).toHaveLength(2));
  });

  it("changes a webhook's events and URL", async () => {
    const r = await receiver();
    const wh = await register(r, ["policy.violation"]);
    const res = await api.patch(`/v1/webhooks/${wh.id}`, { events: ["evaluation.completed"], url: `${r.url}?v=2` });
    expect(res.body).toMatchObject({ events: ["evaluation.completed"], url: `${r.url}?v=2` });
    expectFieldError(await api.patch(`/v1/webhooks/${wh.id}`, { events: ["nope"] }), 400, "events[0]", "INVALID_ENUM");
    expectFieldError(await api.patch(`/v1/webhooks/${wh.id}`, { status: "paused" }), 400, "status", "INVALID_ENUM");
    await api.post("/v1/evaluations", leaky);
    await eventually(() => expect(r.received.map((x) => x.json.event)).toEqual(["evaluation.completed"]));
    expect(r.received[0]!.verified).toBe(true);
  });

  it("keeps retrying across a restart, with the generated master key kept in the data directory", async () => {
    const r = await receiver((n) => (n === 1 ? { status: 500 } : { status: 200 }));
    const wh = await register(r, ["evaluation.completed"]);
    const keyFile = join(v.dataDir, "webhook-master.key");
    expect(statSync(keyFile).mode & 0o777).toBe(0o600);
    expect(v.output()).not.toContain(readFileSync(keyFile, "utf8").trim());
    await api.post("/v1/evaluations", leaky);
    await eventually(() => expect(r.received).toHaveLength(1));
    // A client's idle keep-alive connection makes the gateway's drain outlast the 3 s retry
    // delay: deliveries stop at SIGTERM all the same, and the retry is left to the next process.
    const hangUp = await holdIdleConnection(v.url);
    const stopping = Date.now();
    try {
      expect(await v.stop()).toBe(0);
    } finally {
      hangUp();
    }
    if (TARGET === "all-in-one") expect(Date.now() - stopping).toBeGreaterThan(4_000);
    expect(r.received).toHaveLength(1); // the retry was still waiting when the process stopped
    const dataDir = v.dataDir;
    v = await startVerdict({ env: DEV, dataDir, bootstrapKey: v.bootstrapKey });
    api = new Api(v.url, v.bootstrapKey);
    await eventually(() => expect(r.received).toHaveLength(2));
    expect(r.received[1]!.headers["webhook-id"]).toBe(r.received[0]!.headers["webhook-id"]);
    expect(r.received[1]!.verified).toBe(true);
    await eventually(async () =>
      expect((await api.get(`/v1/webhooks/${wh.id}/deliveries`)).body.deliveries[0]).toMatchObject({
        status: "succeeded",
        attempts: [{ status_code: 500 }, { status_code: 200 }],
      }),
    );
  });
});

describe("tenancy", () => {
  it("hides one organization's webhooks and deliveries from another (404, not 403)", async () => {
    const r = await receiver();
    const wh = await register(r);
    const ping = await api.post(`/v1/webhooks/${wh.id}/ping`);
    const orgB = await api.post("/v1/organizations", { name: "Globex", plan: "team" });
    const b = api.withKey(orgB.body.api_key.key);
    expect((await b.get("/v1/webhooks")).body.webhooks).toEqual([]);
    expectError(await b.get(`/v1/webhooks/${wh.id}`), 404, "not_found", "RESOURCE_NOT_FOUND");
    expectError(await b.delete(`/v1/webhooks/${wh.id}`), 404, "not_found", "RESOURCE_NOT_FOUND");
    expectError(await b.patch(`/v1/webhooks/${wh.id}`, { status: "disabled" }), 404, "not_found", "RESOURCE_NOT_FOUND");
    expectError(await b.get(`/v1/webhooks/${wh.id}/deliveries`), 404, "not_found", "RESOURCE_NOT_FOUND");
    expectError(await b.post(`/v1/webhooks/${wh.id}/ping`), 404, "not_found", "RESOURCE_NOT_FOUND");
    expectError(
      await b.post(`/v1/webhooks/${wh.id}/deliveries/${ping.body.id}/redeliver`),
      404,
      "not_found",
      "RESOURCE_NOT_FOUND",
    );
    // B's evaluations do not reach A's webhook
    await eventually(() => expect(r.received).toHaveLength(1));
    await b.post("/v1/evaluations", leaky);
    await new Promise((res) => setTimeout(res, 500));
    expect(r.received).toHaveLength(1);
    expect((await api.get(`/v1/webhooks/${wh.id}`)).status).toBe(200);
  });
});

describe("an instance with the default egress rules", () => {
  let strict: Verdict;
  let s: Api;

  beforeAll(async () => {
    strict = await startVerdict({ env: { VERDICT_WEBHOOK_MASTER_KEY: Buffer.alloc(32, 3).toString("base64") } });
    s = new Api(strict.url, strict.bootstrapKey);
  });
  afterAll(async () => strict.destroy());

  it("refuses http, loopback and metadata URLs at registration", async () => {
    expectFieldError(
      await s.post("/v1/webhooks", { url: "http://ci.example.com/hook", events: ["policy.violation"] }),
      422,
      "url",
      "INVALID_FORMAT",
    );
    expectFieldError(
      await s.post("/v1/webhooks", { url: "https://127.0.0.1:9/hook", events: ["policy.violation"] }),
      422,
      "url",
      "INVALID_FORMAT",
    );
    expectFieldError(
      await s.post("/v1/webhooks", { url: "https://169.254.169.254/latest/meta-data/", events: ["policy.violation"] }),
      422,
      "url",
      "INVALID_FORMAT",
    );
    expectFieldError(
      await s.post("/v1/webhooks", { url: "https://[::1]/hook", events: ["policy.violation"] }),
      422,
      "url",
      "INVALID_FORMAT",
    );
  });

  it("refuses, at connect time, a host name that resolves to a loopback address", async () => {
    // A receiver really listens there; the name passes registration (it is no IP address) but
    // resolves to 127.0.0.1 when the message is sent.
    const r = await receiver();
    const created = await s.post("/v1/webhooks", {
      url: `https://localhost:${r.port}/hook`,
      events: ["policy.violation"],
    });
    expect(created.status).toBe(201);
    await s.post(`/v1/webhooks/${created.body.id}/ping`);
    await eventually(async () => {
      const [d] = (await s.get(`/v1/webhooks/${created.body.id}/deliveries`)).body.deliveries;
      expect(d.attempts[0]).toMatchObject({ status_code: null, error: expect.stringContaining("refused") });
    });
    expect(r.connections).toBe(0);
  });

  it("refuses to start with a bad master key or retry schedule, naming both (exit code 2)", async () => {
    const start = startVerdict({
      env: { VERDICT_WEBHOOK_MASTER_KEY: "too-short", VERDICT_WEBHOOK_RETRY_SCHEDULE: "5,soon" },
      bootstrapKey: makeKey(),
    });
    // The all-in-one names both; in the distributed stack the identity process (it seals TOTP
    // secrets with the same master key) starts first and refuses the key before webhooks starts.
    await expect(start).rejects.toThrow(
      TARGET === "distributed"
        ? /identity exited with 2[\s\S]*VERDICT_WEBHOOK_MASTER_KEY/
        : /exited with 2[\s\S]*VERDICT_WEBHOOK_MASTER_KEY[\s\S]*VERDICT_WEBHOOK_RETRY_SCHEDULE: 'soon' is not a number of seconds/,
    );
  });
});
