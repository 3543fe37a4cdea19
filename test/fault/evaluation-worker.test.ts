// Fault: the evaluation worker dies (SIGKILL, no draining) while asynchronous evaluations are
// queued, and comes back. Every evaluation must still complete, exactly once as its client and
// its event consumers see it: one result, no duplicated violations, one evaluation.completed.
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { largeChange, startFaultStack, until, type FaultStack } from "./support.js";

const N = 8;
let f: FaultStack;

beforeAll(async () => {
  f = await startFaultStack();
}, 120_000);
afterAll(async () => {
  await f?.close();
});

describe("an evaluation worker killed while work is queued", () => {
  it("completes every evaluation exactly once after it restarts", async () => {
    const worker = f.stack.services.evaluation;
    const ids: string[] = [];
    for (let i = 0; i < N; i++) {
      const res = await f.api.post("/v1/evaluations", largeChange(i));
      expect(res.status).toBe(202);
      expect(res.body.status).toBe("pending");
      ids.push(res.body.id);
    }
    // No draining, no goodbye: whatever it was doing is cut off.
    expect(await worker.stop("SIGKILL")).toBeNull();
    expect(worker.proc.signalCode).toBe("SIGKILL");

    // Restarted on the same port, so the gateway finds it where it was.
    const restarted = await f.stack.start("evaluation", { VERDICT_GRPC_PORT: String(worker.ready.grpc_port) });
    f.stack.services.evaluation = restarted;

    for (const id of ids) {
      await until(`${id} to complete`, async () => (await f.api.get(`/v1/evaluations/${id}`)).body?.status === "completed", 180_000);
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
  }, 300_000);
});
