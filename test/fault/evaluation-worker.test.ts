// Fault: the evaluation worker dies (SIGKILL, no draining) while asynchronous evaluations are
// queued, and comes back. Every evaluation must still complete, exactly once as its client and
// its event consumers see it: one result, no duplicated violations, one evaluation.completed.
// The gateway talks to an API-only evaluation process, so work can be queued while no worker
// runs; the worker is a second evaluation process.
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { largeChange, startFaultStack, until, type FaultStack } from "./support.js";

let f: FaultStack;

beforeAll(async () => {
  f = await startFaultStack({ separateWorker: true });
}, 180_000);
afterAll(async () => {
  await f?.close();
}, 120_000);

describe("an evaluation worker killed while work is queued", () => {
  it("completes every evaluation exactly once after it restarts", async () => {
    const ids: string[] = [];
    const submit = async (n: number) => {
      const res = await f.api.post("/v1/evaluations", largeChange(n));
      expect(res.status).toBe(202);
      expect(res.body.status).toBe("pending");
      ids.push(res.body.id);
    };
    for (let i = 0; i < 6; i++) await submit(i);
    // No draining, no goodbye: whatever it was doing is cut off.
    expect(await f.worker.stop("SIGKILL")).toBeNull();
    expect(f.worker.proc.signalCode).toBe("SIGKILL");
    // Queued while no worker runs: these stay pending.
    for (let i = 6; i < 10; i++) await submit(i);
    for (const id of ids.slice(6)) expect((await f.api.get(`/v1/evaluations/${id}`)).body.status).toBe("pending");

    await f.stack.start("evaluation", { VERDICT_EVALUATION_WORKER: "true" });

    for (const id of ids) {
      await until(
        `${id} to complete`,
        async () => (await f.api.get(`/v1/evaluations/${id}`)).body?.status === "completed",
        180_000,
      );
      const e = (await f.api.get(`/v1/evaluations/${id}`)).body;
      expect(e.passed).toBe(false);
      expect(e.summary.total_violations).toBe(1);
      expect(e.violations).toHaveLength(1);
    }
    // One completion event per evaluation (a redelivery carries the same event id).
    await until("every evaluation.completed event", async () => ids.every((id) => f.deliveries.has(id)), 60_000);
    const events = [...f.completed.values()];
    for (const id of ids) expect(events.filter((e) => e.data.evaluation_id === id)).toHaveLength(1);
    expect(events.every((e) => e.data.status === "completed")).toBe(true);
  }, 400_000);
});
