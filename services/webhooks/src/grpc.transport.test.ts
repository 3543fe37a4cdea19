// The webhooks service end to end below the gateway: real gRPC, the embedded store, the
// in-process bus, and real HTTP receivers on 127.0.0.1 that verify every message with the
// standardwebhooks library.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "@jest/globals";
import { TOPICS, type CloudEvent } from "@verdict/bus";
import { AppError, newId } from "@verdict/kit";
import { startWebhookHarness, type WebhookHarness } from "../test/harness.js";
import { eventually } from "../../../test/support/eventually.js";
import { startReceiver, type Receiver } from "../test/receiver.js";
import { formatDuration } from "./domain/schedule.js";

// Each test has an organization of its own: a disabled endpoint notifies its organization's others.
let ORG = "org_hooks";
let tests = 0;
let h: WebhookHarness;
const receivers: Receiver[] = [];

beforeAll(async () => {
  h = await startWebhookHarness();
});
afterAll(() => h.stop());
beforeEach(() => {
  ORG = `org_hooks_${++tests}`;
});
afterEach(async () => {
  while (receivers.length) await receivers.pop()!.close();
});

async function receiver(respond?: Parameters<typeof startReceiver>[0]): Promise<Receiver> {
  const r = await startReceiver(respond);
  receivers.push(r);
  return r;
}

async function register(r: Receiver, events = ["evaluation.completed", "policy.violation"], org = ORG) {
  const res = await h.client.createWebhook({ organization_id: org, url: r.url, events, secret: "" });
  r.secret = res.secret;
  return res.webhook!;
}

const completed = (org = ORG, id = newId("evt")) => ({
  id,
  source: "/evaluation",
  data: {
    organization_id: org,
    evaluation_id: "eval_01jd0000000000000000000000",
    repository: "acme/payments",
    ref: "main",
    status: "completed",
    passed: false,
    completed_at: "2026-01-01T00:00:00.000Z",
    summary: { total_files: 1, total_violations: 1, errors: 1, warnings: 0, suppressed: 0, skipped_files: 0 },
    internal_field: "never delivered",
  },
});

const deliveries = async (webhookId: string, org = ORG) =>
  (await h.client.listDeliveries({ organization_id: org, webhook_id: webhookId, limit: 100, cursor: "" })).deliveries;

describe("delivery", () => {
  it("delivers signed {event, data, id, timestamp} messages that the standardwebhooks library verifies", async () => {
    const r = await receiver();
    const wh = await register(r);
    await h.bus.publish(TOPICS.evaluationCompleted, completed());
    await eventually(() => expect(r.received).toHaveLength(1));
    const got = r.received[0]!;
    expect(got.verified).toBe(true);
    expect(got.headers["webhook-id"]).toBe(got.json.id);
    expect(got.json).toMatchObject({
      event: "evaluation.completed",
      data: { evaluation_id: "eval_01jd0000000000000000000000", passed: false, summary: { errors: 1 } },
    });
    expect(got.json.data.internal_field).toBeUndefined();
    await eventually(async () =>
      expect((await deliveries(wh.id))[0]).toMatchObject({
        status: "succeeded",
        attempts: [{ attempt: 1, status_code: 200, response_excerpt: "ok" }],
      }),
    );
  });

  it("sends only subscribed events, and the violation with its redacted snippet", async () => {
    const r = await receiver();
    await register(r, ["policy.violation"]);
    await h.bus.publish(TOPICS.evaluationCompleted, completed());
    await h.bus.publish(TOPICS.policyViolation, {
      source: "/evaluation",
      data: {
        organization_id: ORG,
        evaluation_id: "eval_01jd0000000000000000000000",
        repository: "acme/payments",
        violation: {
          id: "viol_1",
          policy_id: "aws-credentials",
          rule_id: "aws-access-key-id",
          severity: "error",
          file: "a.js",
          line: 1,
          column: 12,
          message: "AWS key",
          code_snippet: 'k = "AKIA****"',
          suggestion: "rotate",
        },
      },
    });
    await eventually(() => expect(r.received).toHaveLength(1));
    await new Promise((res) => setTimeout(res, 200));
    expect(r.received.map((x) => x.json.event)).toEqual(["policy.violation"]);
    expect(r.received[0]!.json.data.violation).toMatchObject({
      policy_id: "aws-credentials",
      code_snippet: 'k = "AKIA****"',
    });
  });

  it("makes one message per event and endpoint even when the bus delivers the event twice", async () => {
    const r = await receiver();
    const wh = await register(r);
    const event = completed();
    await h.bus.publish(TOPICS.evaluationCompleted, event);
    await h.bus.publish(TOPICS.evaluationCompleted, event); // same event id: a redelivery
    await eventually(() => expect(r.received).toHaveLength(1));
    await new Promise((res) => setTimeout(res, 300));
    expect(r.received).toHaveLength(1);
    expect(await deliveries(wh.id)).toHaveLength(1);
  });

  it("retries a failing receiver and delivers on the third attempt with the same webhook-id", async () => {
    const r = await receiver((n) => (n <= 2 ? { status: 500, body: "boom" } : { status: 204 }));
    const wh = await register(r);
    await h.bus.publish(TOPICS.evaluationCompleted, completed());
    await eventually(() => expect(r.received).toHaveLength(3));
    expect(new Set(r.received.map((x) => x.headers["webhook-id"])).size).toBe(1);
    expect(r.received.every((x) => x.verified)).toBe(true);
    // the body is the same bytes on every attempt
    expect(new Set(r.received.map((x) => x.body)).size).toBe(1);
    await eventually(async () => {
      const [d] = await deliveries(wh.id);
      expect(d).toMatchObject({ status: "succeeded", id: r.received[0]!.headers["webhook-id"] });
      expect(d!.attempts.map((a) => a.status_code)).toEqual([500, 500, 204]);
      expect(d!.attempts[0]!.response_excerpt).toBe("boom");
    });
    expect((await h.client.getWebhook({ organization_id: ORG, webhook_id: wh.id })).webhook!.status).toBe("active");
  });

  it("persists messages before the first attempt, and a restart mid-retry still delivers", async () => {
    const r = await receiver((n) => (n === 1 ? { status: 503 } : { status: 200 }));
    const wh = await register(r);
    await h.restart(); // a second instance, as during a rolling deploy, then the first one dies
    await h.bus.publish(TOPICS.evaluationCompleted, completed());
    await eventually(() => expect(r.received).toHaveLength(1));
    await h.stopService();
    const [waiting] = await h.repo.deliveryPage(ORG, wh.id, { limit: 10 });
    expect(waiting).toMatchObject({ status: "pending", run_attempts: 1 });
    await h.restart();
    await eventually(() => expect(r.received).toHaveLength(2));
    expect(r.received[1]!.headers["webhook-id"]).toBe(r.received[0]!.headers["webhook-id"]);
    await eventually(async () => expect((await deliveries(wh.id))[0]!.status).toBe("succeeded"));
  });

  it("never sends the same attempt twice when two service instances share the store", async () => {
    const second = await (async () => {
      const { startWebhookService } = await import("./main.js");
      const { createLogger } = await import("@verdict/kit");
      return startWebhookService({
        store: h.store,
        bus: h.bus,
        logger: createLogger("second", "silent"),
        host: "127.0.0.1",
        port: 0,
        masterKey: h.masterKey,
        allowHttp: true,
        allowPrivate: true,
        pollIntervalMs: 10,
        retrySchedule: [0.2],
      });
    })();
    try {
      const r = await receiver();
      const wh = await register(r);
      for (let i = 0; i < 20; i++) await h.client.pingWebhook({ organization_id: ORG, webhook_id: wh.id });
      await eventually(async () => expect((await deliveries(wh.id)).every((d) => d.status === "succeeded")).toBe(true));
      expect(r.received).toHaveLength(20);
      expect(new Set(r.received.map((x) => x.headers["webhook-id"])).size).toBe(20);
    } finally {
      await second.stop();
    }
  });

  it("honours Retry-After", async () => {
    const r = await receiver((n) => (n === 1 ? { status: 429, headers: { "retry-after": "2" } } : { status: 200 }));
    const wh = await register(r);
    await h.client.pingWebhook({ organization_id: ORG, webhook_id: wh.id });
    await eventually(async () => expect((await deliveries(wh.id))[0]!.next_attempt_at).toBeDefined());
    const [d] = await deliveries(wh.id);
    const wait = Date.parse(d!.next_attempt_at!) - Date.parse(d!.attempts[0]!.attempted_at);
    expect(wait).toBeGreaterThanOrEqual(1_900); // the schedule alone says 0.2 s
    await eventually(() => expect(r.received).toHaveLength(2), 15_000);
  });
});

describe("disabling", () => {
  it("disables an endpoint that answers 410, announces it and tells the organization's other endpoints", async () => {
    const org = "org_gone";
    const gone = await receiver(() => ({ status: 410 }));
    const other = await receiver();
    const wh = await register(gone, ["evaluation.completed"], org);
    await register(other, ["policy.violation"], org);
    const announced: CloudEvent<{ webhook_id: string }>[] = [];
    const sub = await h.bus.subscribe<{ webhook_id: string }>(
      TOPICS.webhookDisabled,
      "test-disabled",
      async (e) => void announced.push(e),
    );
    await h.bus.publish(TOPICS.evaluationCompleted, completed(org));
    await eventually(async () =>
      expect((await h.client.getWebhook({ organization_id: org, webhook_id: wh.id })).webhook).toMatchObject({
        status: "disabled",
        disabled_reason: "The endpoint answered 410 Gone",
      }),
    );
    expect(gone.received).toHaveLength(1); // no retry after 410
    await eventually(() => expect(announced.map((e) => e.data.webhook_id)).toContain(wh.id));
    await eventually(() => expect(other.received.map((x) => x.json.event)).toEqual(["webhook.disabled"]));
    expect(other.received[0]!.verified).toBe(true);
    expect(other.received[0]!.json.data).toMatchObject({ webhook_id: wh.id, reason: "The endpoint answered 410 Gone" });
    // a disabled endpoint gets nothing more, and cannot be pinged
    await h.bus.publish(TOPICS.evaluationCompleted, completed(org));
    await new Promise((res) => setTimeout(res, 300));
    expect(gone.received).toHaveLength(1);
    await expect(h.client.pingWebhook({ organization_id: org, webhook_id: wh.id })).rejects.toMatchObject({
      kind: "unprocessable",
    });
    await sub.unsubscribe();
    // re-enabled once the receiver is fixed, it gets messages again
    gone.respond = () => ({ status: 200 });
    const enabled = await h.client.updateWebhook({ organization_id: org, webhook_id: wh.id, status: "active" });
    expect(enabled.webhook).toMatchObject({ status: "active" });
    expect(enabled.webhook!.disabled_reason).toBeUndefined();
    await h.bus.publish(TOPICS.evaluationCompleted, completed(org));
    await eventually(() => expect(gone.received).toHaveLength(2));
  });

  it("disables an endpoint that failed every attempt of a message's schedule", async () => {
    const org = "org_down";
    const down = await receiver(() => ({ status: 500 }));
    const wh = await register(down, ["evaluation.completed"], org);
    await h.bus.publish(TOPICS.evaluationCompleted, completed(org));
    await eventually(async () =>
      expect((await h.client.getWebhook({ organization_id: org, webhook_id: wh.id })).webhook!.status).toBe("disabled"),
    );
    expect(down.received).toHaveLength(3); // first attempt + the two retries of the schedule
    const [d] = await deliveries(wh.id, org);
    expect(d).toMatchObject({ status: "failed" });
    expect((await h.client.getWebhook({ organization_id: org, webhook_id: wh.id })).webhook!.disabled_reason).toMatch(
      new RegExp(`^No delivery succeeded for \\d+ seconds?: message ${d!.id} failed all 3 attempts$`),
    );
  });
});

it("words how long an endpoint failed", () => {
  expect(formatDuration(500)).toBe("1 second");
  expect(formatDuration(59_000)).toBe("59 seconds");
  expect(formatDuration(3 * 3_600_000 + 5)).toBe("3 hours");
  expect(formatDuration(75 * 3_600_000)).toBe("3 days");
});

describe("endpoints", () => {
  it("keeps secrets encrypted at rest and never lists them", async () => {
    const secret = `whsec_${Buffer.alloc(32, 9).toString("base64")}`;
    const res = await h.client.createWebhook({
      organization_id: ORG,
      url: "https://ci.example.com/hook",
      events: ["policy.violation"],
      secret,
    });
    expect(res.secret).toBe(secret);
    const doc = await h.repo.findEndpoint(ORG, res.webhook!.id);
    expect(JSON.stringify(doc)).not.toContain(secret.slice(6, 30));
    const listed = await h.client.listWebhooks({ organization_id: ORG });
    expect(JSON.stringify(listed)).not.toContain("whsec_");
    await h.client.deleteWebhook({ organization_id: ORG, webhook_id: res.webhook!.id });
  });

  it("validates the URL, events and secret with field paths", async () => {
    const create = (url: string, events: string[], secret = "") =>
      h.client.createWebhook({ organization_id: ORG, url, events, secret });
    const fails = async (p: Promise<unknown>) => {
      try {
        await p;
      } catch (err) {
        return err as AppError;
      }
      throw new Error("expected a failure");
    };
    expect((await fails(create("https://x.example/h", ["evaluation.started"]))).details).toEqual({
      errors: [expect.objectContaining({ field: "events[0]", code: "INVALID_ENUM" })],
    });
    expect((await fails(create("not a url", ["policy.violation"]))).kind).toBe("unprocessable");
    expect((await fails(create("https://x.example/h", ["policy.violation"], "plain-secret"))).details).toEqual({
      errors: [expect.objectContaining({ field: "secret" })],
    });
  });

  it("scopes everything by organization", async () => {
    const r = await receiver();
    const wh = await register(r, ["evaluation.completed"], "org_a");
    await expect(h.client.getWebhook({ organization_id: "org_b", webhook_id: wh.id })).rejects.toMatchObject({
      kind: "not_found",
    });
    await expect(h.client.deleteWebhook({ organization_id: "org_b", webhook_id: wh.id })).rejects.toMatchObject({
      kind: "not_found",
    });
    await expect(
      h.client.listDeliveries({ organization_id: "org_b", webhook_id: wh.id, limit: 10, cursor: "" }),
    ).rejects.toMatchObject({ kind: "not_found" });
    expect((await h.client.listWebhooks({ organization_id: "org_b" })).webhooks).toEqual([]);
    // org_b's evaluations do not reach org_a's endpoint
    await h.bus.publish(TOPICS.evaluationCompleted, completed("org_b"));
    await new Promise((res) => setTimeout(res, 300));
    expect(r.received).toHaveLength(0);
  });

  it("pings, redelivers with the same id, and pages the log", async () => {
    const r = await receiver();
    const wh = await register(r);
    for (let i = 0; i < 3; i++) await h.client.pingWebhook({ organization_id: ORG, webhook_id: wh.id });
    await eventually(() => expect(r.received).toHaveLength(3));
    expect(r.received[0]!.json).toMatchObject({ event: "webhook.ping", data: { webhook_id: wh.id } });
    const first = await h.client.listDeliveries({ organization_id: ORG, webhook_id: wh.id, limit: 2, cursor: "" });
    expect(first.deliveries).toHaveLength(2);
    expect(first.has_more).toBe(true);
    const second = await h.client.listDeliveries({
      organization_id: ORG,
      webhook_id: wh.id,
      limit: 2,
      cursor: first.next_cursor!,
    });
    expect(second.deliveries).toHaveLength(1);
    expect(second.has_more).toBe(false);
    const oldest = second.deliveries[0]!;
    await eventually(async () => expect((await deliveries(wh.id)).every((d) => d.status === "succeeded")).toBe(true));
    const again = await h.client.redeliverDelivery({ organization_id: ORG, webhook_id: wh.id, delivery_id: oldest.id });
    expect(again.delivery).toMatchObject({ id: oldest.id, status: "pending" });
    await eventually(() => expect(r.received).toHaveLength(4));
    expect(r.received[3]!.headers["webhook-id"]).toBe(oldest.id);
    await eventually(async () =>
      expect((await deliveries(wh.id)).find((d) => d.id === oldest.id)!.attempts).toHaveLength(2),
    );
  });

  it("removes a deleted endpoint's log and sends it nothing more", async () => {
    const r = await receiver(() => ({ status: 500 }));
    const wh = await register(r);
    await h.client.pingWebhook({ organization_id: ORG, webhook_id: wh.id });
    await eventually(() => expect(r.received).toHaveLength(1));
    await h.client.deleteWebhook({ organization_id: ORG, webhook_id: wh.id });
    expect(await h.repo.deliveryPage(ORG, wh.id, { limit: 10 })).toHaveLength(0);
    await new Promise((res) => setTimeout(res, 600));
    expect(r.received).toHaveLength(1);
  });
});
