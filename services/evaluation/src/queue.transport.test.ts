// Queued evaluations in the all-in-one shape (contents spooled to files of the data directory,
// off the store) and the per-organization queue caps, over real gRPC with real policy and
// identity services, the embedded store and the in-process bus.
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { AppError, createLogger } from "@verdict/kit";
import type { evaluationV1 } from "@verdict/proto";
import { startEvaluationHarness, type EvaluationHarness } from "../test/harness.js";
import { eventually } from "../../../test/support/eventually.js";
import { startEvaluationService } from "./main.js";

const AWS_KEY = "AKIAZ7VQ3X4M2N8P5R6T";
let dir: string;
let spool: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "verdict-queue-"));
  spool = join(dir, "evaluation-queue");
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const files = (n: number, size = 20): evaluationV1.File[] =>
  Array.from({ length: n }, (_, i) => ({
    path: `src/f${i}.ts`,
    content: Buffer.from(i === 1 ? `const k = "${AWS_KEY}";\n` : `// ${"x".repeat(size)}\nexport const n = ${i};\n`),
    status: "modified",
  }));

async function create(h: EvaluationHarness, org: string, change: evaluationV1.File[]) {
  return (
    await h.client.createEvaluation({
      organization_id: org,
      repository: "acme/big",
      ref: "main",
      base_ref: "",
      bypass_reason: "",
      request_id: "",
      files: change,
      policies: [],
    })
  ).evaluation!;
}

describe("queued evaluations with a spool directory", () => {
  let h: EvaluationHarness;
  beforeAll(async () => {
    // API-only first, so the queued state can be looked at; a worker instance takes it after.
    h = await startEvaluationHarness({ limits: { asyncMinFiles: 3 }, service: { spoolDir: spool, worker: false } });
  });
  afterAll(() => h.stop());

  it("keeps the contents out of the store, owner-only while queued, and erases them once scanned", async () => {
    const queued = await create(h, "org_spool", files(4));
    expect(queued.status).toBe("pending");
    const docs = await h.repo.jobFilesOf(queued.id);
    expect(docs.map((d) => [d.path, d.spooled, d.content])).toEqual(files(4).map((f) => [f.path, true, ""]));
    expect(statSync(spool).mode & 0o777).toBe(0o700);
    const spooled = readdirSync(spool).sort();
    expect(spooled).toEqual([0, 1, 2, 3].map((i) => `${queued.id}.${i}`));
    for (const name of spooled) expect(statSync(join(spool, name)).mode & 0o777).toBe(0o600);
    expect(readFileSync(join(spool, `${queued.id}.1`), "utf8")).toContain(AWS_KEY);

    const worker = await startEvaluationService({
      store: h.policy.store,
      bus: h.policy.bus,
      logger: createLogger("worker", "silent"),
      host: "127.0.0.1",
      port: 0,
      policyAddress: h.policy.address,
      identityAddress: `127.0.0.1:${h.identity.grpc.port}`,
      limits: { asyncMinFiles: 3 },
      spoolDir: spool,
    });
    try {
      await eventually(
        async () =>
          expect(
            (await h.client.getEvaluation({ organization_id: "org_spool", evaluation_id: queued.id })).evaluation,
          ).toMatchObject({ status: "completed", passed: false, summary: { total_files: 4, total_violations: 1 } }),
        // A new instance starts its scan threads and compiles the built-in policies first.
        30_000,
      );
      await eventually(async () => {
        expect(await h.repo.jobFilesOf(queued.id)).toHaveLength(0);
        expect(readdirSync(spool)).toEqual([]);
      });
    } finally {
      await worker.stop();
    }
  });
});

describe("per-organization queue caps", () => {
  let h: EvaluationHarness;
  beforeAll(async () => {
    // An API-only instance: nothing is worked off, so what is queued stays queued.
    h = await startEvaluationHarness({
      limits: { asyncMinFiles: 3, maxQueuedPerOrganization: 2, maxQueuedBytesPerOrganization: 1000 },
      service: { worker: false },
    });
  });
  afterAll(() => h.stop());

  const refusal = (change: evaluationV1.File[], org: string) =>
    create(h, org, change).then(
      () => null,
      (err: unknown) => err,
    );

  it("answers 429 with a retry delay past the count of queued evaluations; other organizations still queue", async () => {
    expect((await create(h, "org_count", files(3))).status).toBe("pending");
    expect((await create(h, "org_count", files(3))).status).toBe("pending");
    const err = await refusal(files(3), "org_count");
    expect(err).toBeInstanceOf(AppError);
    expect(err).toMatchObject({
      kind: "rate_limited",
      code: "RATE_LIMIT_EXCEEDED",
      details: { limit: 2, window: "queued", retry_after: 5 },
    });
    // Small changes are not queued, so the cap does not apply to them.
    expect((await create(h, "org_count", files(2))).status).toBe("completed");
    expect((await create(h, "org_other", files(3))).status).toBe("pending");
  });

  it("answers 429 past the bytes the queued evaluations hold, but always lets one in", async () => {
    // 3 files of ~560 bytes: more than the 1000-byte cap, let in because nothing is queued.
    expect((await create(h, "org_bytes", files(3, 500))).status).toBe("pending");
    const err = await refusal(files(3), "org_bytes");
    expect(err).toMatchObject({ code: "RATE_LIMIT_EXCEEDED", details: { limit: 1000, window: "queued" } });
    expect((err as Error).message).toMatch(/bytes/);
  });
});

describe("after a crash, with a spool directory", () => {
  it("erases spooled contents that belong to no queued evaluation before taking requests", async () => {
    const h = await startEvaluationHarness();
    const leftover = join(spool, "eval_01jcrashedcrashedcrashedcr.0");
    writeFileSync(leftover, `const k = "${AWS_KEY}";\n`, { mode: 0o600 });
    const restarted = await startEvaluationService({
      store: h.policy.store,
      bus: h.policy.bus,
      logger: createLogger("restarted", "silent"),
      host: "127.0.0.1",
      port: 0,
      policyAddress: h.policy.address,
      identityAddress: `127.0.0.1:${h.identity.grpc.port}`,
      spoolDir: spool,
    });
    try {
      expect(readdirSync(spool)).toEqual([]);
    } finally {
      await restarted.stop();
      await h.stop();
    }
  });
});
