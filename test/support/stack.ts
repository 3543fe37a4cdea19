// Verdict in distributed mode for black-box suites: every service and the gateway as its own
// process (services/<name>/dist/bin.js), against the Kafka and MongoDB-compatible database the
// test command started (VERDICT_E2E_KAFKA_BROKERS and VERDICT_E2E_MONGODB_URI, or the same
// without E2E_). Each stack gets its own database and topic prefix, derived from its data directory, so suites sharing one Kafka and
// one database server never see each other's data or events, and a stack restarted on the same
// data directory finds its data again.
import { spawn, type ChildProcess } from "node:child_process";
import { createHash } from "node:crypto";
import { join } from "node:path";
import { COMPILE_CACHE_ENV, ROOT } from "./paths.js";
import { READY_TIMEOUT_MS, waitForReadyLine } from "./ready.js";

export type ServiceName = "policy" | "identity" | "evaluation" | "compliance" | "webhooks" | "integrations" | "gateway";

export interface ServiceProcess {
  name: string;
  proc: ChildProcess;
  /** Fields of its ready line (grpc_port or http_port). */
  ready: { grpc_port?: number; http_port?: number; metrics_port?: number; pid: number };
  output(): string;
  exited: Promise<number | null>;
  /** SIGTERM (or the given signal) and the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

export const BIN: Record<ServiceName, string> = {
  policy: join(ROOT, "services/policy/dist/bin.js"),
  identity: join(ROOT, "services/identity/dist/bin.js"),
  evaluation: join(ROOT, "services/evaluation/dist/bin.js"),
  compliance: join(ROOT, "services/compliance/dist/bin.js"),
  webhooks: join(ROOT, "services/webhooks/dist/bin.js"),
  integrations: join(ROOT, "services/integrations/dist/bin.js"),
  gateway: join(ROOT, "services/gateway/dist/bin.js"),
};

export const KAFKA_BROKERS = process.env.VERDICT_E2E_KAFKA_BROKERS || process.env.VERDICT_KAFKA_BROKERS || undefined;
const MONGODB_URI = process.env.VERDICT_E2E_MONGODB_URI || process.env.VERDICT_MONGODB_URI || undefined;

/** Where the stack's events and documents live: one topic prefix and database per data directory. */
export function stackIdentity(dataDir: string): { topicPrefix: string; mongoUri?: string } {
  const id = createHash("sha256").update(dataDir).digest("hex").slice(0, 12);
  const base = MONGODB_URI;
  let mongoUri: string | undefined;
  if (base) {
    const u = new URL(base);
    u.pathname = `/verdict_e2e_${id}`;
    mongoUri = u.toString();
  }
  return { topicPrefix: `e2e-${id}.`, ...(mongoUri ? { mongoUri } : {}) };
}

/** The environment every process of one stack shares. */
export function stackEnv(dataDir: string, extra: Record<string, string> = {}): Record<string, string> {
  const { topicPrefix, mongoUri } = stackIdentity(dataDir);
  return {
    PATH: process.env.PATH ?? "",
    ...COMPILE_CACHE_ENV,
    VERDICT_DATA_DIR: dataDir,
    VERDICT_LOG_LEVEL: "info",
    VERDICT_GRPC_HOST: "127.0.0.1",
    VERDICT_KAFKA_TOPIC_PREFIX: topicPrefix,
    ...(KAFKA_BROKERS ? { VERDICT_KAFKA_BROKERS: KAFKA_BROKERS } : {}),
    ...(mongoUri ? { VERDICT_MONGODB_URI: mongoUri } : {}),
    ...extra,
  };
}

/** Starts one service process and waits for its `<name> ready` line. */
export async function startService(
  name: ServiceName,
  env: Record<string, string>,
  timeoutMs = READY_TIMEOUT_MS,
): Promise<ServiceProcess> {
  const proc = spawn(process.execPath, [BIN[name]], { cwd: ROOT, env, stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  proc.stdout!.on("data", (d: Buffer) => (out += d.toString("utf8")));
  proc.stderr!.on("data", (d: Buffer) => (out += d.toString("utf8")));
  const exited = new Promise<number | null>((res) => proc.once("exit", (code) => res(code)));
  const ready = await waitForReadyLine<ServiceProcess["ready"]>(
    name,
    proc,
    () => out,
    exited,
    (line) => line.includes(`"msg":"${name} ready"`),
    timeoutMs,
  );
  let stopped: Promise<number | null> | undefined;
  return {
    name,
    proc,
    ready,
    output: () => out,
    exited,
    stop(signal: NodeJS.Signals = "SIGTERM") {
      if (!stopped) {
        if (proc.exitCode === null && proc.signalCode === null) proc.kill(signal);
        stopped = exited;
      }
      return stopped;
    },
  };
}

export interface Stack {
  services: Record<ServiceName, ServiceProcess>;
  /** Environment of the stack's processes, with the addresses of the services. */
  env: Record<string, string>;
  /** Starts one more process of a service (another evaluation worker, or a restart). */
  start(name: ServiceName, extra?: Record<string, string>): Promise<ServiceProcess>;
  /** Every process this stack started, in order. */
  all: ServiceProcess[];
}

/**
 * Starts policy, identity, evaluation, compliance, webhooks, integrations and the gateway, in that order (each needs the ones
 * before it), on free ports; `only` adds variables for one service. Processes started before a
 * failure are stopped.
 */
export async function startStack(
  dataDir: string,
  env: Record<string, string>,
  only: Partial<Record<ServiceName, Record<string, string>>> = {},
): Promise<Stack> {
  const all: ServiceProcess[] = [];
  const base = stackEnv(dataDir, env);
  const addresses: Record<string, string> = {};
  const start = async (name: ServiceName, extra: Record<string, string> = {}) => {
    const port: Record<string, string> =
      name === "gateway"
        ? {
            VERDICT_HTTP_PORT: base.VERDICT_HTTP_PORT ?? "0",
            VERDICT_HTTP_HOST: "127.0.0.1",
            VERDICT_METRICS_PORT: "0",
          }
        : { VERDICT_GRPC_PORT: "0", VERDICT_METRICS_PORT: "0" };
    const p = await startService(name, { ...base, ...addresses, ...port, ...only[name], ...extra });
    all.push(p);
    return p;
  };
  try {
    const policy = await start("policy");
    addresses.VERDICT_POLICY_ADDRESS = `127.0.0.1:${policy.ready.grpc_port}`;
    const identity = await start("identity");
    addresses.VERDICT_IDENTITY_ADDRESS = `127.0.0.1:${identity.ready.grpc_port}`;
    const evaluation = await start("evaluation");
    addresses.VERDICT_EVALUATION_ADDRESS = `127.0.0.1:${evaluation.ready.grpc_port}`;
    const compliance = await start("compliance");
    addresses.VERDICT_COMPLIANCE_ADDRESS = `127.0.0.1:${compliance.ready.grpc_port}`;
    const webhooks = await start("webhooks");
    addresses.VERDICT_WEBHOOKS_ADDRESS = `127.0.0.1:${webhooks.ready.grpc_port}`;
    const integrations = await start("integrations");
    addresses.VERDICT_INTEGRATIONS_ADDRESS = `127.0.0.1:${integrations.ready.grpc_port}`;
    const gateway = await start("gateway");
    return {
      services: { policy, identity, evaluation, compliance, webhooks, integrations, gateway },
      env: { ...base, ...addresses },
      start,
      all,
    };
  } catch (err) {
    for (const p of all.reverse()) await p.stop();
    throw err;
  }
}

/**
 * Stops every process of the stack at once, as deleting a whole deployment does. (Gateway first,
 * then the rest, let a webhook retry due 3 s later run while the gateway waited out its clients'
 * keep-alive connections.) Answers the gateway's exit code.
 */
export async function stopStack(stack: Stack): Promise<number | null> {
  const [gateway] = await Promise.all([stack.services.gateway.stop(), ...stack.all.map((p) => p.stop())]);
  return gateway!;
}
