// Asynchronous evaluations over real gRPC, a real policy and identity service, the embedded
// store and the in-process bus: queued, worked off, finished exactly once, and never lost.
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { TOPICS, type CloudEvent, type EvaluationCompletedData } from "@verdict/bus";
import { createLogger, newId } from "@verdict/kit";
import type { evaluationV1 } from "@verdict/proto";
import { startEvaluationHarness, type EvaluationHarness } from "../test/harness.js";
import { eventually } from "../../../test/support/eventually.js";
import { startEvaluationService } from "./main.js";
import { pendingEvaluation } from "../test/fakes.js";

const ORG = "org_async";
const AWS_KEY = "AKIAZ7VQ3X4M2N8P5R6T";
let h: EvaluationHarness;
const completed: CloudEvent<EvaluationCompletedData>[] = [];

beforeAll(async () => {
  h = await startEvaluationHarness({ limits: { asyncMinFiles: 3, asyncMinBytes: 1_000_000 } });
  await h.policy.bus.subscribe<EvaluationCompletedData>(
    TOPICS.evaluationCompleted,
    "test",
    async (e) => void completed.push(e),
  );
});
afterAll(() => h.stop());

const files = (n: number): evaluationV1.File[] =>
  Array.from({ length: n }, (_, i) => ({
    path: `src/f${i}.ts`,
    content: Buffer.from(i === 1 ? `const k = "${AWS_KEY}";\n` : `export const n = ${i};\n`),
    status: "modified",
  }));

const create = async (n: number, policies: string[] = []) =>
  (
    await h.client.createEvaluation({
      organization_id: ORG,
      repository: "acme/big",
      ref: "main",
      base_ref: "",
      bypass_reason: "",
      request_id: "",
      files: files(n),
      policies,
    })
  ).evaluation!;
const get = async (id: string) =>
  (await h.client.getEvaluation({ organization_id: ORG, evaluation_id: id })).evaluation!;

describe("asynchronous evaluations", () => {
  it("answers small changes at once and queues large ones, which then complete", async () => {
    expect((await create(2)).status).toBe("completed");
    const queued = await create(5);
    expect(queued).toMatchObject({ status: "pending", summary: { total_files: 5 } });
    expect(queued.passed).toBeUndefined();
    expect(queued.completed_at).toBeUndefined();
    await eventually(async () => expect((await get(queued.id)).status).toBe("completed"));
    const done = await get(queued.id);
    expect(done).toMatchObject({ passed: false, summary: { total_files: 5, total_violations: 1, errors: 1 } });
    expect(done.violations[0]).toMatchObject({ policy_id: "aws-credentials", file: "src/f1.ts", line: 1 });
    // one completion event, and the queued files are gone
    await eventually(() => expect(completed.filter((e) => e.data.evaluation_id === queued.id)).toHaveLength(1));
    expect(await h.repo.jobFilesOf(queued.id)).toHaveLength(0);
  });

  it("queues by size in bytes too", async () => {
    const big = (
      await h.client.createEvaluation({
        organization_id: ORG,
        repository: "acme/big",
        ref: "main",
        base_ref: "",
        bypass_reason: "",
        request_id: "",
        files: [{ path: "data.txt", content: Buffer.from("x".repeat(1_000_000)), status: "added" }],
        policies: [],
      })
    ).evaluation!;
    expect(big.status).toBe("pending");
    await eventually(async () => expect((await get(big.id)).status).toBe("completed"));
  });
});

describe("after a crash", () => {
  // What a crash leaves behind: a pending evaluation and its files in the store, and no event.
  async function leftPending(opts: { withFiles: boolean; policies?: string[] }): Promise<string> {
    const id = newId("eval");
    const now = new Date().toISOString();
    const record = pendingEvaluation({
      id,
      organization_id: ORG,
      repository: "acme/crashed",
      created_at: now,
      requested_policies: opts.policies ?? [],
    });
    if (opts.withFiles) {
      for (const [index, f] of files(3).entries()) {
        await h.repo.addJobFile({
          id: `${id}:${index}`,
          evaluation_id: id,
          organization_id: ORG,
          index,
          created_at: now,
          ...f,
          content: f.content.toString("utf8"),
        });
      }
    }
    await h.repo.insert(record, []); // no event: the crash came before it
    return id;
  }

  async function restartedService() {
    return startEvaluationService({
      store: h.policy.store,
      bus: h.policy.bus,
      logger: createLogger("restarted", "silent"),
      host: "127.0.0.1",
      port: 0,
      policyAddress: h.policy.address,
      identityAddress: `127.0.0.1:${h.identity.grpc.port}`,
    });
  }

  it("finishes work that was queued when the process stopped", async () => {
    const id = await leftPending({ withFiles: true });
    const restarted = await restartedService();
    try {
      await eventually(async () =>
        expect(await get(id)).toMatchObject({ status: "completed", passed: false, summary: { total_violations: 1 } }),
      );
      await eventually(() => expect(completed.filter((e) => e.data.evaluation_id === id)).toHaveLength(1));
    } finally {
      await restarted.stop();
    }
  });

  it("never runs a queued evaluation that was deleted before a worker took it", async () => {
    const id = await leftPending({ withFiles: true });
    await h.client.deleteEvaluation({ organization_id: ORG, evaluation_id: id });
    expect(await h.repo.jobFilesOf(id)).toHaveLength(0);
    const restarted = await restartedService();
    try {
      await new Promise((r) => setTimeout(r, 150));
      await expect(get(id)).rejects.toMatchObject({ kind: "deleted" });
      expect(completed.filter((e) => e.data.evaluation_id === id)).toHaveLength(0);
    } finally {
      await restarted.stop();
    }
  });

  it("fails, with a reason, an evaluation whose files were lost", async () => {
    const id = await leftPending({ withFiles: false });
    const restarted = await restartedService();
    try {
      await eventually(async () =>
        expect(await get(id)).toMatchObject({
          status: "failed",
          failure_reason: expect.stringMatching(/files were lost/),
        }),
      );
      const event = completed.find((e) => e.data.evaluation_id === id);
      expect(event?.data).toMatchObject({ status: "failed", passed: null });
    } finally {
      await restarted.stop();
    }
  });

  it("fails, with the policy service's reason, an evaluation naming a policy deleted meanwhile", async () => {
    const id = await leftPending({ withFiles: true, policies: ["deleted-meanwhile"] });
    const restarted = await restartedService();
    try {
      await eventually(async () =>
        expect(await get(id)).toMatchObject({
          status: "failed",
          failure_reason: expect.stringMatching(/deleted-meanwhile/),
        }),
      );
    } finally {
      await restarted.stop();
    }
  });
});
