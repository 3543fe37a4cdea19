// Starts the real all-in-one process (the README's run command, minus the install) on free
// ports with a fresh data directory, and talks to it over real HTTP. With
// VERDICT_E2E_TARGET=distributed it starts the distributed stack instead (every service its own
// process, on the Kafka and database the test command started: see stack.ts), behind the same
// interface, so the same suites run against both.
import { spawn, type ChildProcess } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { hangUpIdleConnections } from "./keepalive.js";
import { makeKey } from "./keys.js";
import { waitForReadyLine } from "./ready.js";
import { COMPILE_CACHE_ENV, ROOT } from "./paths.js";
import { stackIdentity, startStack, stopStack, type Stack } from "./stack.js";

export { ROOT };
/** Which Verdict the black-box suites start: the all-in-one process, or the distributed stack. */
export const TARGET: "all-in-one" | "distributed" | "external" = process.env.VERDICT_E2E_URL
  ? "external"
  : process.env.VERDICT_E2E_TARGET === "distributed"
    ? "distributed"
    : "all-in-one";
export const MAIN = join(ROOT, "services/all-in-one/dist/main.js");

export interface Verdict {
  url: string;
  port: number;
  /** Where Prometheus metrics are served (VERDICT_METRICS_PORT: never the API port). */
  metricsUrl: string;
  grpcPorts: {
    identity: number;
    policy: number;
    evaluation: number;
    compliance: number;
    webhooks: number;
    integrations: number;
  };
  bootstrapKey: string;
  dataDir: string;
  /** The all-in-one process, or the gateway's in distributed mode. */
  proc: ChildProcess;
  /** Distributed mode: every process of the stack. */
  stack?: Stack;
  /** Everything the process wrote to stdout and stderr so far. */
  output(): string;
  /** Sends SIGTERM and waits for the exit code. */
  stop(): Promise<number | null>;
  /** Stops (if running) and removes the data directory. */
  destroy(): Promise<void>;
}

export interface StartOptions {
  env?: Record<string, string>;
  dataDir?: string;
  bootstrapKey?: string;
}

/**
 * Where an instance started on `dataDir` keeps its documents when it runs on MongoDB (the
 * distributed stack, or the all-in-one with VERDICT_E2E_MONGODB_URI); undefined: the embedded
 * store in the data directory.
 */
export function mongoDatabaseOf(dataDir: string): { uri: string; database: string } | undefined {
  if (TARGET === "distributed") {
    const uri = stackIdentity(dataDir).mongoUri;
    return uri ? { uri, database: new URL(uri).pathname.slice(1) } : undefined;
  }
  if (!process.env.VERDICT_E2E_MONGODB_URI) return undefined;
  const run = `e2e_${createHash("sha256").update(dataDir).digest("hex").slice(0, 12)}`;
  return { uri: process.env.VERDICT_E2E_MONGODB_URI, database: `verdict_${run}` };
}

/**
 * With VERDICT_E2E_MONGODB_URI / VERDICT_E2E_KAFKA_BROKERS set, every instance runs on that
 * MongoDB (its own database) and Kafka (its own topic prefix) instead of the embedded adapters.
 * (The database is left behind: the servers from deploy/local/ are throw-away.)
 */
function realInfraEnv(dataDir: string): Record<string, string> {
  const env: Record<string, string> = {};
  // Named after the data directory, so a restart on the same directory finds its data again.
  const run = `e2e_${createHash("sha256").update(dataDir).digest("hex").slice(0, 12)}`;
  const mongo = mongoDatabaseOf(dataDir);
  if (mongo) {
    env.VERDICT_MONGODB_URI = mongo.uri;
    env.VERDICT_MONGODB_DATABASE = mongo.database;
  }
  if (process.env.VERDICT_E2E_KAFKA_BROKERS) {
    env.VERDICT_KAFKA_BROKERS = process.env.VERDICT_E2E_KAFKA_BROKERS;
    env.VERDICT_KAFKA_TOPIC_PREFIX = `${run}.`;
    env.VERDICT_KAFKA_TOPIC_PARTITIONS = "1";
  }
  return env;
}

/**
 * Pattern budgets raised far enough that a deliberately costly policy (a pattern such as
 * `[\pL\pN]{400}Z`) can be stored, as policies stored before the budgets existed would be:
 * for the tests that make one organization a noisy neighbour.
 */
export const RELAXED_PATTERN_BUDGETS = {
  VERDICT_PATTERN_MAX_COMPILE_MS: "60000",
  VERDICT_PATTERN_MAX_PROGRAM_BYTES: String(1024 * 1024 * 1024),
  VERDICT_PATTERN_MAX_SCAN_MS_PER_MIB: "1000000",
  VERDICT_PATTERN_CHECK_TIMEOUT_MS: "60000",
};

export async function startVerdict(opts: StartOptions = {}): Promise<Verdict> {
  if (TARGET === "external") return external(opts);
  const dataDir = opts.dataDir ?? mkdtempSync(join(tmpdir(), "verdict-e2e-"));
  const bootstrapKey = opts.bootstrapKey ?? makeKey("prod");
  if (TARGET === "distributed") return startDistributed(dataDir, bootstrapKey, opts);
  const proc = spawn(process.execPath, [MAIN], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? "",
      ...COMPILE_CACHE_ENV,
      VERDICT_HTTP_PORT: "0",
      VERDICT_HTTP_HOST: "127.0.0.1",
      VERDICT_DATA_DIR: dataDir,
      VERDICT_BOOTSTRAP_API_KEY: bootstrapKey,
      VERDICT_LOG_LEVEL: "info",
      VERDICT_METRICS_PORT: "0",
      ...realInfraEnv(dataDir),
      ...opts.env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  proc.stdout!.on("data", (d: Buffer) => (out += d.toString("utf8")));
  proc.stderr!.on("data", (d: Buffer) => (out += d.toString("utf8")));
  const exited = new Promise<number | null>((res) => proc.once("exit", (code) => res(code)));

  const ready = await waitForReadyLine<{ http_port: number; metrics_port?: number; grpc_ports: Verdict["grpcPorts"] }>(
    "Verdict",
    proc,
    () => out,
    exited,
    (line) => line.includes("Verdict is ready"),
  );

  let stopped: Promise<number | null> | undefined;
  const stop = () => {
    if (!stopped) {
      if (proc.exitCode === null && proc.signalCode === null) {
        hangUpIdleConnections();
        proc.kill("SIGTERM");
      }
      stopped = exited;
    }
    return stopped;
  };
  return {
    url: `http://127.0.0.1:${ready.http_port}`,
    port: ready.http_port,
    metricsUrl: `http://127.0.0.1:${ready.metrics_port}/metrics`,
    grpcPorts: ready.grpc_ports,
    bootstrapKey,
    dataDir,
    proc,
    output: () => out,
    stop,
    async destroy() {
      await stop();
      if (!opts.dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

async function startDistributed(dataDir: string, bootstrapKey: string, opts: StartOptions): Promise<Verdict> {
  const stack = await startStack(dataDir, { VERDICT_BOOTSTRAP_API_KEY: bootstrapKey, ...opts.env });
  const { gateway, identity, policy, evaluation, compliance, webhooks, integrations } = stack.services;
  let stopped: Promise<number | null> | undefined;
  // A SIGTERM sent to the gateway's process (a suite checking draining) stops the whole stack.
  void gateway.exited.then(() => stop());
  const stop = () => {
    if (!stopped) hangUpIdleConnections();
    return (stopped ??= stopStack(stack));
  };
  return {
    url: `http://127.0.0.1:${gateway.ready.http_port}`,
    port: gateway.ready.http_port!,
    metricsUrl: `http://127.0.0.1:${gateway.ready.metrics_port}/metrics`,
    grpcPorts: {
      identity: identity.ready.grpc_port!,
      policy: policy.ready.grpc_port!,
      evaluation: evaluation.ready.grpc_port!,
      compliance: compliance.ready.grpc_port!,
      webhooks: webhooks.ready.grpc_port!,
      integrations: integrations.ready.grpc_port!,
    },
    bootstrapKey,
    dataDir,
    proc: gateway.proc,
    stack,
    output: () => stack.all.map((p) => p.output()).join(""),
    stop,
    async destroy() {
      await stop();
      if (!opts.dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * VERDICT_E2E_URL (with VERDICT_E2E_BOOTSTRAP_KEY, its operator key): a Verdict running elsewhere
 * (the chart's install on the test cluster: test/kube/cluster.test.ts) instead of one the suite
 * starts. Only suites that need nothing but the API run this way: a suite that starts Verdict with
 * its own settings, or reaches for its process, ports or data, fails loudly.
 */
function external(opts: StartOptions): Verdict {
  if (opts.env || opts.dataDir || opts.bootstrapKey)
    throw new Error("this suite starts Verdict with its own settings: it cannot run against VERDICT_E2E_URL");
  const bootstrapKey = process.env.VERDICT_E2E_BOOTSTRAP_KEY;
  if (!bootstrapKey)
    throw new Error("VERDICT_E2E_URL needs VERDICT_E2E_BOOTSTRAP_KEY, the operator key of that Verdict");
  const url = process.env.VERDICT_E2E_URL!.replace(/\/+$/, "");
  const notHere = (what: string): never => {
    throw new Error(`${what} is not available against VERDICT_E2E_URL (a Verdict this suite did not start)`);
  };
  return {
    url,
    port: Number(new URL(url).port),
    bootstrapKey,
    get metricsUrl() {
      return notHere("metricsUrl");
    },
    get grpcPorts() {
      return notHere("grpcPorts");
    },
    get dataDir() {
      return notHere("dataDir");
    },
    get proc() {
      return notHere("proc");
    },
    output: () => "",
    // Not ours to stop: the suite only hangs up its idle connections.
    stop: async () => {
      hangUpIdleConnections();
      return null;
    },
    destroy: async () => hangUpIdleConnections(),
  };
}

/** Waits until a line of the instance's log passes `match` (a background step finished), else throws with the log's tail. */
export async function untilLogged(v: Verdict, match: (line: string) => boolean, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!v.output().split("\n").some(match)) {
    if (Date.now() > deadline) throw new Error(`not logged in ${timeoutMs} ms:\n${v.output().slice(-3000)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}
