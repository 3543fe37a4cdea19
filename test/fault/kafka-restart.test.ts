// Fault: Kafka restarts in the middle of a run (deploy/local/kafka.sh stop, then start) while
// asynchronous evaluations are queued and new ones arrive. Nothing is lost: every evaluation
// completes exactly once, and its evaluation.completed event reaches consumers once.
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { ROOT } from "../support/paths.js";
import { largeChange, sleep, startFaultStack, until, type FaultStack } from "./support.js";

const KAFKA = join(ROOT, "deploy/local/kafka.sh");
// Asynchronous: the test's own HTTP client must keep running (a blocked event loop would keep
// using connections the gateway closed meanwhile).
const kafka = (cmd: "start" | "stop") => promisify(execFile)("bash", [KAFKA, cmd], { env: process.env });

let f: FaultStack;

beforeAll(async () => {
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
    await kafka("stop");
    for (let i = 4; i < 8; i++) await submit(i);
    await sleep(2000);
    await kafka("start");
    for (let i = 8; i < 10; i++) await submit(i);

    for (const id of ids) {
      await until(`${id} to complete`, async () => (await f.api.get(`/v1/evaluations/${id}`)).body?.status === "completed", 240_000);
      const e = (await f.api.get(`/v1/evaluations/${id}`)).body;
      expect(e.summary.total_violations).toBe(1);
      expect(e.violations).toHaveLength(1);
    }
    await until("every evaluation.completed event", async () => ids.every((id) => f.deliveries.has(id)), 120_000);
    const events = [...f.completed.values()];
    for (const id of ids) expect(events.filter((e) => e.data.evaluation_id === id)).toHaveLength(1);
  }, 600_000);
});
