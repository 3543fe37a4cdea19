// Fault: Kafka restarts in the middle of a run (its container, started by testcontainers in
// test/containers/infra.ts, is stopped and started again on the same port) while asynchronous
// evaluations are queued and new ones arrive. Nothing is lost: every evaluation completes
// exactly once, and its evaluation.completed event reaches consumers once.
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { kafkaContainer } from "../containers/infra.js";
import { largeChange, sleep, startFaultStack, until, type FaultStack } from "./support.js";

let f: FaultStack;
let kafka: Awaited<ReturnType<typeof kafkaContainer>>;

beforeAll(async () => {
  kafka = await kafkaContainer();
  f = await startFaultStack();
}, 120_000);
afterAll(async () => {
  await f?.close();
}, 120_000);

describe("Kafka restarted during a run", () => {
  it("loses nothing and completes every evaluation exactly once", async () => {
    const ids: string[] = [];
    const submit = async (n: number) => {
      // While the broker is down the write succeeds and its event waits in the outbox.
      const res = await f.api.post("/v1/evaluations", largeChange(n));
      expect(res.status).toBe(202);
      ids.push(res.body.id);
    };
    for (let i = 0; i < 4; i++) await submit(i);
    await kafka.stop();
    for (let i = 4; i < 8; i++) await submit(i);
    await sleep(2000);
    await kafka.start();
    for (let i = 8; i < 10; i++) await submit(i);

    for (const id of ids) {
      // The completed evaluation is the answer that said so: while the evaluation service works
      // through the backlog the broker's restart left, another read can meet a busy service (a
      // 503 the client retries) like the reads before completion.
      let e: any;
      await until(
        `${id} to complete`,
        async () => {
          const res = await f.api.get(`/v1/evaluations/${id}`);
          if (res.body?.status === "completed") e = res.body;
          return e !== undefined;
        },
        240_000,
      );
      expect(e.summary.total_violations).toBe(1);
      expect(e.violations).toHaveLength(1);
    }
    await until("every evaluation.completed event", async () => ids.every((id) => f.deliveries.has(id)), 120_000);
    const events = [...f.completed.values()];
    for (const id of ids) expect(events.filter((e) => e.data.evaluation_id === id)).toHaveLength(1);
  }, 600_000);
});
