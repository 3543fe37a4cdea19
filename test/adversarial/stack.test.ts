// `pnpm stack:up` / `stack:status` / `stack:down` (scripts/stack.sh) run for real, twice, on two
// data directories: once letting identity generate the operator's key, once with
// VERDICT_BOOTSTRAP_API_KEY given, and `up` again after `down` (identity prints no key then).
// Each stack starts its own FerretDB, whose data must live in that stack's data directory.
// Kafka: the one the test command started (VERDICT_TEST_KAFKA_BROKERS, each stack with its own
// topic prefix), else stack.sh starts one of its own in the data directory too.
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "@jest/globals";
import { makeKey } from "../support/keys.js";
import { ROOT } from "../support/paths.js";

const LIMIT_MS = 600_000;

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const s = createServer().listen(0, "127.0.0.1", () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
    s.on("error", reject);
  });

/** The gRPC ports a stack takes from its base: every service's offset and extra evaluation workers'. */
const GRPC_SPAN = 14;

/**
 * A base port with the ports after it free too (the services' gRPC ports: base … base+13), below
 * Linux's ephemeral range (32768-60999), where an outgoing connection of another suite could take
 * one between this check and the service's bind (a compliance service once failed to start on
 * EADDRINUSE at 32840), and below Kubernetes' NodePort range (30000-32767): the test command runs
 * the cluster test beside this suite, and kube-proxy sends 127.0.0.1 on a NodePort to the
 * cluster whether or not anything is bound to it.
 */
async function freeBase(): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const base = 20_000 + Math.floor(Math.random() * (30_000 - 20_000 - GRPC_SPAN));
    const ok = await Promise.all(
      Array.from({ length: GRPC_SPAN }, (_, i) => i).map(
        (i) =>
          new Promise<boolean>((resolve) => {
            const s = createServer().listen(base + i, "127.0.0.1", () => s.close(() => resolve(true)));
            s.on("error", () => resolve(false));
          }),
      ),
    );
    if (ok.every(Boolean)) return base;
  }
  throw new Error(`no ${GRPC_SPAN} consecutive free ports`);
}

interface Run {
  code: number | null;
  out: string;
}

/** Runs `pnpm stack:<command>` from the repository root with the given environment. */
function stack(command: "up" | "status" | "down", env: Record<string, string>): Promise<Run> {
  return new Promise((resolve) => {
    const child = spawn("pnpm", ["-s", `stack:${command}`], { cwd: ROOT, env, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    child.stdout.on("data", (d: Buffer) => (out += d.toString("utf8")));
    child.stderr.on("data", (d: Buffer) => (out += d.toString("utf8")));
    child.on("close", (code) => resolve({ code, out }));
  });
}

async function stackEnv(dataDir: string, extra: Record<string, string> = {}): Promise<Record<string, string>> {
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? "",
    HOME: process.env.HOME ?? "",
    VERDICT_DATA_DIR: dataDir,
    VERDICT_HTTP_PORT: String(await freePort()),
    VERDICT_MCP_PORT: String(await freePort()),
    VERDICT_GRPC_BASE_PORT: String(await freeBase()),
    VERDICT_MONGODB_PORT: String(await freePort()),
    VERDICT_LOG_LEVEL: "info",
    ...extra,
  };
  for (const v of ["VERDICT_LOCAL_CACHE", "XDG_CACHE_HOME", "GOPATH", "GOMODCACHE", "GOCACHE", "JAVA_HOME"])
    if (process.env[v]) env[v] = process.env[v]!;
  const brokers = process.env.VERDICT_TEST_KAFKA_BROKERS || process.env.VERDICT_E2E_KAFKA_BROKERS;
  if (brokers) {
    env.VERDICT_KAFKA_BROKERS = brokers;
    env.VERDICT_KAFKA_TOPIC_PREFIX = `stack-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}.`;
    env.VERDICT_KAFKA_TOPIC_PARTITIONS = "1";
  } else {
    env.VERDICT_KAFKA_PORT = String(await freePort());
    env.VERDICT_KAFKA_CONTROLLER_PORT = String(await freePort());
  }
  return env;
}

const authStatus = async (env: Record<string, string>, key: string) =>
  (
    await fetch(`http://127.0.0.1:${env.VERDICT_HTTP_PORT}/v1/health/auth`, {
      headers: { authorization: `Bearer ${key}` },
    })
  ).status;

const ready = async (env: Record<string, string>) => {
  const res = await fetch(`http://127.0.0.1:${env.VERDICT_HTTP_PORT}/v1/health/ready`);
  return { status: res.status, body: (await res.json()) as unknown };
};

const KEY_LINE = /instance operator's API key \(shown once\): (vdt_key_\w+)/;

const dirs: string[] = [];
const started: Record<string, string>[] = [];
afterAll(async () => {
  // Whatever a failed assertion left running is stopped (by stack.sh, from its PID files).
  for (const env of started) await stack("down", env);
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
}, LIMIT_MS);

describe("scripts/stack.sh", () => {
  it(
    "starts, reports, restarts and stops a stack that generates its key, and one given a key, each with its data in its own directory",
    async () => {
      // ---- data directory A: identity generates the operator's key ----
      const a = mkdtempSync(join(tmpdir(), "verdict-stack-a-"));
      dirs.push(a);
      const envA = await stackEnv(a);
      started.push(envA);
      const up = await stack("up", envA);
      expect({ code: up.code, tail: up.out.slice(-3000) }).toEqual({
        code: 0,
        tail: expect.stringContaining("Verdict is healthy"),
      });
      const generated = KEY_LINE.exec(up.out)?.[1];
      expect(generated).toMatch(/^vdt_key_prod_/);
      expect(await authStatus(envA, generated!)).toBe(200);
      // FerretDB's data is in A, not in deploy/local/.run.
      expect(existsSync(join(a, "infra/mongo/ferretdb.pid"))).toBe(true);
      expect(readdirSync(join(a, "infra/mongo/data")).length).toBeGreaterThan(0);

      const status = await stack("status", envA);
      expect(status.code).toBe(0);
      expect(status.out).toMatch(/gateway: running/);
      expect(status.out).toMatch(/identity: running/);
      expect(status.out).toMatch(/gateway: healthy/);

      // `up` on a running stack: nothing restarted, no key shown again.
      const again = await stack("up", envA);
      expect(again.code).toBe(0);
      expect(again.out).toMatch(/already running/);
      expect(again.out).not.toMatch(KEY_LINE);

      const down = await stack("down", envA);
      expect(down.code).toBe(0);
      const stopped = await stack("status", envA);
      expect(stopped.code).not.toBe(0);
      expect(stopped.out).toMatch(/not answering/);

      // The second start finds its data again: identity prints no key and the first one works.
      const restart = await stack("up", envA);
      expect({ code: restart.code, tail: restart.out.slice(-3000) }).toEqual({
        code: 0,
        tail: expect.stringContaining("Verdict is healthy"),
      });
      expect(restart.out).not.toMatch(KEY_LINE);
      // `up` returns once the gateway reaches every service, so the first request works.
      expect(await authStatus(envA, generated!)).toBe(200);
      expect(await ready(envA)).toEqual({
        status: 200,
        body: {
          status: "ready",
          services: {
            identity: "SERVING",
            policy: "SERVING",
            evaluation: "SERVING",
            compliance: "SERVING",
            webhooks: "SERVING",
            integrations: "SERVING",
          },
        },
      });

      // Identity gone: the gateway is alive (GET /v1/health) but not ready, and says which
      // service it cannot reach; `status` fails; `up` starts identity again and waits for it.
      process.kill(Number(readFileSync(join(a, "stack/identity.pid"), "utf8").trim()), "SIGKILL");
      let notReady = await ready(envA);
      for (let i = 0; i < 20 && notReady.status === 200; i++) {
        await new Promise((r) => setTimeout(r, 250));
        notReady = await ready(envA);
      }
      expect(notReady).toMatchObject({
        status: 503,
        body: {
          error: "service_unavailable",
          code: "SERVICE_UNAVAILABLE",
          details: { services: { identity: "UNREACHABLE", policy: "SERVING" } },
        },
      });
      expect((await fetch(`http://127.0.0.1:${envA.VERDICT_HTTP_PORT}/v1/health`)).status).toBe(200);
      // SIGKILL is sent; the process may take a moment to leave (its memory torn down on a busy
      // machine) before `status` can say it is gone.
      let degraded = await stack("status", envA);
      for (let i = 0; i < 20 && !/identity: not running/.test(degraded.out); i++) {
        await new Promise((r) => setTimeout(r, 250));
        degraded = await stack("status", envA);
      }
      expect(degraded.code).not.toBe(0);
      expect(degraded.out).toMatch(/identity: not running/);
      expect(degraded.out).toMatch(/gateway: answering on :\d+ but not ready/);
      const healed = await stack("up", envA);
      expect({ code: healed.code, tail: healed.out.slice(-3000) }).toEqual({
        code: 0,
        tail: expect.stringContaining("Verdict is healthy"),
      });
      expect(await authStatus(envA, generated!)).toBe(200);
      expect((await stack("down", envA)).code).toBe(0);

      // ---- data directory B: the key is given ----
      const b = mkdtempSync(join(tmpdir(), "verdict-stack-b-"));
      dirs.push(b);
      const given = makeKey("prod");
      const envB = await stackEnv(b, { VERDICT_BOOTSTRAP_API_KEY: given });
      started.push(envB);
      const upB = await stack("up", envB);
      expect({ code: upB.code, tail: upB.out.slice(-3000) }).toEqual({
        code: 0,
        tail: expect.stringContaining("Verdict is healthy"),
      });
      expect(upB.out).not.toMatch(KEY_LINE);
      expect(await authStatus(envB, given)).toBe(200);
      // A separate Verdict: A's key means nothing here.
      expect(await authStatus(envB, generated!)).toBe(401);
      expect(existsSync(join(b, "infra/mongo/ferretdb.pid"))).toBe(true);
      expect((await stack("status", envB)).code).toBe(0);
      expect((await stack("down", envB)).code).toBe(0);
      expect(existsSync(join(b, "infra/mongo/ferretdb.pid"))).toBe(false);
      expect((await stack("status", envB)).code).not.toBe(0);
    },
    LIMIT_MS,
  );
});
