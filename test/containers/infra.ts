// Kafka and the MongoDB-compatible server (FerretDB) for the integration suites, as containers
// started by testcontainers from the images deploy/infra/images.sh builds locally (never pulled).
// Nothing here is a stand-in: the Store and Bus contract suites, the black-box suites on real
// infrastructure, the distributed pass, the fault suites and the adversarial suite all talk to
// these servers.
//
// Run as a program (scripts/test.sh does), it starts both, prints the variables the suites read
// and keeps the containers until SIGTERM or SIGINT, then stops and removes them:
//   node test/containers/infra.ts [ENV-FILE]
// ENV-FILE (optional) gets the same lines, written once both servers serve.
//
// Environment: DOCKER_HOST, VERDICT_KAFKA_IMAGE and VERDICT_FERRETDB_IMAGE (what images.sh
// prints), VERDICT_INFRA_LOG_DIR (optional: each container's output goes to <name>.log there).
// Ryuk (testcontainers' reaper) cannot be pulled: it is disabled, and this program removes what
// it started; every container carries the label verdict.test-infra=<run id> so that a caller
// can remove leftovers after a crash (scripts/test.sh does).
import { createWriteStream, writeFileSync } from "node:fs";
import { connect, createServer } from "node:net";
import { join } from "node:path";
import { randomUUID } from "node:crypto";
import type { StartedTestContainer } from "testcontainers";

/** testcontainers reads these when first used: set them before loading it. */
function testcontainersEnv(): void {
  process.env.TESTCONTAINERS_RYUK_DISABLED ??= "true";
  // /.dockerenv exists on these machines, so testcontainers would believe it runs inside a
  // container and dial the bridge gateway; every port is published on 127.0.0.1.
  process.env.TESTCONTAINERS_HOST_OVERRIDE ??= "127.0.0.1";
}

const loadTestcontainers = async () => {
  testcontainersEnv();
  return import("testcontainers");
};

export const INFRA_LABEL = "verdict.test-infra";

export interface Infra {
  /** VERDICT_TEST_KAFKA_BROKERS, VERDICT_TEST_MONGODB_URI and VERDICT_TEST_KAFKA_CONTAINER. */
  env: Record<string, string>;
  kafka: StartedTestContainer;
  ferretdb: StartedTestContainer;
  stop(): Promise<void>;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.on("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

function image(variable: string): string {
  const value = process.env[variable];
  if (!value) throw new Error(`${variable} is not set: bash deploy/infra/images.sh builds the image and prints it`);
  return value;
}

/** Starts Kafka and FerretDB (in parallel) and waits until both serve. */
export async function startInfra(runId: string = randomUUID()): Promise<Infra> {
  const { GenericContainer, PullPolicy, Wait } = await loadTestcontainers();
  const logDir = process.env.VERDICT_INFRA_LOG_DIR;
  const withLogs = (c: InstanceType<typeof GenericContainer>, name: string) =>
    logDir
      ? c.withLogConsumer((stream) => stream.pipe(createWriteStream(join(logDir, `${name}.log`), { flags: "a" })))
      : c;
  // Kafka tells clients the address to use (advertised listener), and the fault suite restarts
  // the container: the host port is fixed and the same inside, so that it survives a restart.
  const kafkaPort = await freePort();
  const kafka = withLogs(
    new GenericContainer(image("VERDICT_KAFKA_IMAGE"))
      .withPullPolicy(PullPolicy.neverPull())
      .withLabels({ [INFRA_LABEL]: runId })
      .withEnvironment({ KAFKA_PORT: String(kafkaPort), KAFKA_ADVERTISED_LISTENER: `127.0.0.1:${kafkaPort}` })
      .withExposedPorts({ container: kafkaPort, host: kafkaPort })
      .withWaitStrategy(Wait.forLogMessage(/Kafka Server started/))
      .withStartupTimeout(180_000),
    "kafka",
  ).start();
  const ferretdb = withLogs(
    new GenericContainer(image("VERDICT_FERRETDB_IMAGE"))
      .withPullPolicy(PullPolicy.neverPull())
      .withLabels({ [INFRA_LABEL]: runId })
      .withExposedPorts(27017)
      .withWaitStrategy(Wait.forListeningPorts())
      .withStartupTimeout(60_000),
    "ferretdb",
  ).start();
  const [k, f] = await Promise.allSettled([kafka, ferretdb]);
  if (k.status === "rejected" || f.status === "rejected") {
    for (const r of [k, f]) if (r.status === "fulfilled") await r.value.stop().catch(() => undefined);
    throw k.status === "rejected" ? k.reason : (f as PromiseRejectedResult).reason;
  }
  const started = { kafka: k.value, ferretdb: f.value };
  return {
    ...started,
    env: {
      VERDICT_TEST_KAFKA_BROKERS: `127.0.0.1:${kafkaPort}`,
      VERDICT_TEST_MONGODB_URI: `mongodb://127.0.0.1:${started.ferretdb.getMappedPort(27017)}/`,
      VERDICT_TEST_KAFKA_CONTAINER: started.kafka.getId(),
    },
    async stop() {
      await Promise.all([
        started.kafka.stop({ remove: true, removeVolumes: true }),
        started.ferretdb.stop({ remove: true, removeVolumes: true }),
      ]);
    },
  };
}

/** Resolves once something accepts connections on 127.0.0.1:port. */
export async function portOpen(port: number, timeoutMs: number): Promise<void> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const ok = await new Promise<boolean>((resolve) => {
      const s = connect(port, "127.0.0.1");
      s.once("connect", () => (s.destroy(), resolve(true)));
      s.once("error", () => resolve(false));
    });
    if (ok) return;
    if (Date.now() > end) throw new Error(`nothing listens on 127.0.0.1:${port} after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/**
 * The Kafka container the running infra started (VERDICT_TEST_KAFKA_CONTAINER), for the fault
 * suite: stop it (the broker goes away, its data stays in the container) and start it again on
 * the same port.
 */
export async function kafkaContainer() {
  const id = process.env.VERDICT_TEST_KAFKA_CONTAINER;
  const brokers = process.env.VERDICT_TEST_KAFKA_BROKERS ?? process.env.VERDICT_E2E_KAFKA_BROKERS;
  if (!id || !brokers)
    throw new Error(
      "VERDICT_TEST_KAFKA_CONTAINER / VERDICT_TEST_KAFKA_BROKERS are not set: node test/containers/infra.ts prints them",
    );
  const port = Number(brokers.split(":").pop());
  const { getContainerRuntimeClient } = await loadTestcontainers();
  const client = await getContainerRuntimeClient();
  const container = client.container.getById(id);
  return {
    stop: () => client.container.stop(container, { timeout: 30 }),
    async start() {
      await client.container.start(container);
      await portOpen(port, 120_000);
    },
  };
}

// As a program: start, print, hold until told to stop.
if (import.meta.filename === process.argv[1]) {
  const runId = process.env.VERDICT_INFRA_RUN_ID || randomUUID();
  const t0 = Date.now();
  const infra = await startInfra(runId).catch((err: unknown) => {
    process.stderr.write(`test infra did not start: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  });
  const lines = Object.entries(infra.env).map(([k, v]) => `${k}=${v}`);
  if (process.argv[2]) writeFileSync(process.argv[2], `${lines.join("\n")}\n`);
  process.stdout.write(`${lines.join("\n")}\n`);
  process.stderr.write(`==> Kafka and FerretDB containers serve (${((Date.now() - t0) / 1000).toFixed(1)} s)\n`);
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    await infra.stop().catch((err: unknown) => process.stderr.write(`stopping the test infra: ${String(err)}\n`));
    process.exit(0);
  };
  process.on("SIGTERM", () => void stop());
  process.on("SIGINT", () => void stop());
  // Keeps the event loop alive until a signal comes.
  setInterval(() => undefined, 1 << 30);
}
