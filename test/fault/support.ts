// Shared by the fault suites: a distributed stack with a low async threshold, a consumer of
// `evaluation.completed` in its own group (what a webhook or compliance consumer would see),
// and helpers to queue work and wait for it.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { TOPICS, type Bus, type CloudEvent } from "@verdict/bus";
import { createLogger } from "@verdict/kit";
import { openBus, processConfig } from "@verdict/runtime";
import { Api } from "../support/api.js";
import { makeKey } from "../support/keys.js";
import {
  KAFKA_BROKERS,
  stackIdentity,
  startStack,
  stopStack,
  type ServiceProcess,
  type Stack,
} from "../support/stack.js";

export const ASYNC_MIN_FILES = 3;

export interface FaultStack {
  stack: Stack;
  /** The process that works off queued evaluations. */
  worker: ServiceProcess;
  api: Api;
  dataDir: string;
  /** evaluation.completed events seen by the test's own consumer group, by event id. */
  completed: Map<string, CloudEvent<{ evaluation_id: string; status: string }>>;
  /** How many deliveries each evaluation's completion got (redeliveries of one event included). */
  deliveries: Map<string, number>;
  observer: Bus;
  close(): Promise<void>;
}

/**
 * The stack, with `separateWorker`: the evaluation process the gateway calls serves the API
 * only, and one more evaluation process is the worker (stack.services.evaluation stays the API
 * one; the worker is returned as `worker`).
 */
export async function startFaultStack(opts: { separateWorker?: boolean } = {}): Promise<FaultStack> {
  const dataDir = mkdtempSync(join(tmpdir(), "verdict-fault-"));
  const bootstrapKey = makeKey();
  const stack = await startStack(
    dataDir,
    { VERDICT_BOOTSTRAP_API_KEY: bootstrapKey, VERDICT_ASYNC_MIN_FILES: String(ASYNC_MIN_FILES) },
    opts.separateWorker ? { evaluation: { VERDICT_EVALUATION_WORKER: "false" } } : {},
  );
  const logger = createLogger("fault-observer", "silent");
  const busConfig = processConfig.parse({
    ...(KAFKA_BROKERS ? { VERDICT_KAFKA_BROKERS: KAFKA_BROKERS } : {}),
    VERDICT_KAFKA_TOPIC_PREFIX: stackIdentity(dataDir).topicPrefix,
  });
  const observer = await openBus(busConfig, logger, "verdict-fault-observer");
  const completed = new Map<string, CloudEvent<{ evaluation_id: string; status: string }>>();
  const deliveries = new Map<string, number>();
  await observer.subscribe<{ evaluation_id: string; status: string }>(
    TOPICS.evaluationCompleted,
    "fault-observer",
    async (e) => {
      completed.set(e.id, e);
      deliveries.set(e.data.evaluation_id, (deliveries.get(e.data.evaluation_id) ?? 0) + 1);
    },
  );
  const worker = opts.separateWorker
    ? await stack.start("evaluation", { VERDICT_EVALUATION_WORKER: "true" })
    : stack.services.evaluation;
  return {
    stack,
    worker,
    api: new Api(`http://127.0.0.1:${stack.services.gateway.ready.http_port}`, bootstrapKey),
    dataDir,
    completed,
    deliveries,
    observer,
    async close() {
      // Kept for a failed run: every process's output, beside the other test files.
      if (process.env.VERDICT_FAULT_LOG_DIR) {
        for (const p of stack.all)
          writeFileSync(join(process.env.VERDICT_FAULT_LOG_DIR, `${p.name}-${p.ready.pid}.log`), p.output());
      }
      await observer.close();
      await stopStack(stack);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A change large enough to be queued: ASYNC_MIN_FILES + 1 files, one AWS key among them. */
export function largeChange(n: number) {
  const files = Array.from({ length: ASYNC_MIN_FILES + 1 }, (_, i) => ({
    path: `src/file${i}.js`,
    content:
      i === 0 ? `const key = "AKIAZ7VQ3X4M2N8P5R${String(n).padStart(2, "0")}";\n` : `export const x${i} = ${i};\n`,
  }));
  return { repository: `acme/fault-${n}`, ref: "main", files };
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls until fn answers true; transient failures (a service restarting) are retried. */
export async function until(what: string, fn: () => Promise<boolean>, timeoutMs = 120_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  let last: unknown;
  while (Date.now() < end) {
    try {
      if (await fn()) return;
    } catch (err) {
      last = err;
    }
    await sleep(250);
  }
  throw new Error(`timed out waiting for ${what}${last ? `: ${String(last)}` : ""}`);
}
