// The production image (Dockerfile), run the way a platform team runs it: read-only root
// filesystem, a volume for /data, non-root, each service chosen by the command. Needs a running
// Docker engine (DOCKER_HOST) and the built image in VERDICT_TEST_IMAGE: scripts/test-container.sh
// starts the engine, builds the local base and the image, and runs this suite.
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { execFile } from "node:child_process";
import { chmodSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { grpcHealth } from "../support/grpc.js";
import { makeKey } from "../support/keys.js";
import { ROOT } from "../support/paths.js";
import { bash, shellBlocks } from "../support/shell.js";

const run = promisify(execFile);
const IMAGE = process.env.VERDICT_TEST_IMAGE ?? "";
const GRACE_MS = 10_000;
const AWS_KEY = "AKIAZ7VQ3X4M2N8P5R6T";
const started: string[] = [];
const volumes: string[] = [];

async function docker(...args: string[]): Promise<string> {
  const { stdout } = await run("docker", args, { maxBuffer: 16 * 1024 * 1024 });
  return stdout.trim();
}

async function volume(): Promise<string> {
  const name = await docker("volume", "create");
  volumes.push(name);
  return name;
}

/** Starts the image the way docs/container.md says: --read-only, a volume on /data, ports on 127.0.0.1. */
async function start(
  command: string,
  port: number,
  env: Record<string, string> = {},
): Promise<{ id: string; hostPort: number }> {
  const envArgs = Object.entries(env).flatMap(([k, v]) => ["-e", `${k}=${v}`]);
  const id = await docker(
    "run",
    "-d",
    "--read-only",
    "-v",
    `${await volume()}:/data`,
    "-p",
    `127.0.0.1::${port}`,
    ...envArgs,
    IMAGE,
    command,
  );
  started.push(id);
  const mapping = await docker("port", id, `${port}/tcp`);
  // "127.0.0.1:49153" (one line per address family)
  const hostPort = Number(/:(\d+)$/m.exec(mapping)?.[1]);
  if (!hostPort) throw new Error(`no published port for ${port}: ${mapping}`);
  return { id, hostPort };
}

async function logs(id: string): Promise<string> {
  const { stdout, stderr } = await run("docker", ["logs", id], { maxBuffer: 16 * 1024 * 1024 });
  return stdout + stderr;
}

async function until<T>(what: string, id: string, probe: () => Promise<T | undefined>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined) return value;
    } catch {
      // not yet
    }
    if (Date.now() > deadline)
      throw new Error(`${what} did not happen within ${timeoutMs} ms; container logs:\n${await logs(id)}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

const healthy = (port: number, path: string) => async () => {
  const res = await fetch(`http://127.0.0.1:${port}${path}`);
  return res.status === 200 ? ((await res.json()) as { status: string }) : undefined;
};

beforeAll(() => {
  if (!IMAGE) throw new Error("VERDICT_TEST_IMAGE is not set: run bash scripts/test-container.sh");
});

afterAll(async () => {
  for (const id of started) await run("docker", ["rm", "-f", "-v", id]).catch(() => undefined);
  for (const v of volumes) await run("docker", ["volume", "rm", "-f", v]).catch(() => undefined);
});

describe("the image as all-in-one", () => {
  const key = makeKey();
  let c: { id: string; hostPort: number };

  beforeAll(async () => {
    c = await start("all-in-one", 8080, {
      VERDICT_BOOTSTRAP_API_KEY: key,
      VERDICT_SHUTDOWN_GRACE_MS: String(GRACE_MS),
    });
  });

  it("answers /v1/health and evaluates a change with the operator's key", async () => {
    const health = await until("GET /v1/health", c.id, healthy(c.hostPort, "/v1/health"));
    expect(health.status).toBe("healthy");
    const res = await fetch(`http://127.0.0.1:${c.hostPort}/v1/evaluations`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify({
        repository: "acme/payments",
        ref: "feature/login",
        base_ref: "main",
        files: [{ path: "src/config.js", status: "modified", content: 'const key = "AKIAZ7VQ3X4M2N8P5R6T";\n' }],
      }),
    });
    expect({ status: res.status }).toEqual({ status: 201 });
    const body = (await res.json()) as { passed: boolean; violations: { policy_id: string }[] };
    expect(body.passed).toBe(false);
    expect(body.violations.map((v) => v.policy_id)).toContain("aws-credentials");
  });

  it("has the `verdict` command, which evaluates a file with the service in the same container", async () => {
    // (docker exec's working directory is /data, the volume: the root filesystem is read-only.)
    const script = `printf 'const key = "${AWS_KEY}";\\n' > leak.js && verdict evaluate leak.js --json`;
    const env = ["-e", "VERDICT_URL=http://127.0.0.1:8080", "-e", `VERDICT_API_KEY=${key}`];
    const failed = await run("docker", ["exec", ...env, c.id, "sh", "-c", script]).then(
      () => undefined,
      (err: { code?: number; stdout?: string; stderr?: string }) => err,
    );
    expect({ code: failed?.code, stderr: failed?.stderr }).toEqual({ code: 1, stderr: "" });
    const evaluation = JSON.parse(failed!.stdout!) as { violations: { policy_id: string; file: string }[] };
    expect(evaluation.violations).toEqual([expect.objectContaining({ policy_id: "aws-credentials", file: "leak.js" })]);
  });

  it("runs as a non-root user, cannot write its root filesystem and keeps its data in the /data volume", async () => {
    expect(await docker("exec", c.id, "id", "-u")).toBe("10001");
    await expect(docker("exec", c.id, "touch", "/app/probe")).rejects.toThrow(/Read-only file system/);
    await expect(docker("exec", c.id, "touch", "/tmp/probe")).rejects.toThrow(/Read-only file system/);
    expect((await docker("exec", c.id, "ls", "/data")).split("\n")).toContain("verdict.db");
    // tini is PID 1 and the service its child, so SIGTERM reaches Verdict.
    expect(await docker("exec", c.id, "cat", "/proc/1/comm")).toBe("tini");
  });

  it("reports healthy through its HEALTHCHECK", async () => {
    const status = await until(
      "health status healthy",
      c.id,
      async () => {
        const s = await docker("inspect", "--format", "{{.State.Health.Status}}", c.id);
        return s === "healthy" ? s : undefined;
      },
      90_000,
    );
    expect(status).toBe("healthy");
  }, 120_000);

  it("on SIGTERM finishes the request in flight, then exits 0 within the grace period", async () => {
    // A request whose body is still arriving when the signal comes: it must still be answered.
    const body = JSON.stringify({
      repository: "acme/payments",
      ref: "main",
      files: [{ path: "a.js", status: "added", content: "const ok = 1;\n" }],
    });
    const half = Math.floor(body.length / 2);
    const answer = new Promise<number>((resolve, reject) => {
      const req = request(
        {
          host: "127.0.0.1",
          port: c.hostPort,
          path: "/v1/evaluations",
          method: "POST",
          headers: {
            authorization: `Bearer ${key}`,
            "content-type": "application/json",
            "content-length": Buffer.byteLength(body),
          },
        },
        (res) => {
          res.resume();
          res.on("end", () => resolve(res.statusCode ?? 0));
        },
      );
      req.on("error", reject);
      req.write(body.slice(0, half));
      setTimeout(() => req.end(body.slice(half)), 1500);
    });
    await new Promise((r) => setTimeout(r, 300));
    const t0 = Date.now();
    await docker("kill", "--signal", "TERM", c.id);
    expect(await answer).toBe(201);
    const exitCode = await docker("wait", c.id);
    const took = Date.now() - t0;
    expect(exitCode).toBe("0");
    expect(took).toBeLessThan(GRACE_MS);
    const out = await logs(c.id);
    expect(out).toContain("shutting down: draining in-flight requests");
    expect(out).toContain('"msg":"stopped"');
  }, 60_000);
});

describe("the image as each service, with its required configuration", () => {
  const grpcServices = [
    ["verdict-identity", 50051, "verdict.identity.v1.IdentityService"],
    ["verdict-policy", 50052, "verdict.policy.v1.PolicyService"],
    ["verdict-evaluation", 50053, "verdict.evaluation.v1.EvaluationService"],
    ["verdict-compliance", 50054, "verdict.compliance.v1.ComplianceService"],
    ["verdict-webhooks", 50055, "verdict.webhooks.v1.WebhookService"],
    ["verdict-integrations", 50056, "verdict.integrations.v1.IntegrationsService"],
  ] as const;

  it.each(grpcServices)(
    "%s serves gRPC health on port %d, as non-root on a read-only root",
    async (command, port, service) => {
      const c = await start(command, port);
      const status = await until(`${command} gRPC health`, c.id, async () =>
        (await grpcHealth(c.hostPort, "")) === "SERVING" ? "SERVING" : undefined,
      );
      expect(status).toBe("SERVING");
      expect(await grpcHealth(c.hostPort, service)).toBe("SERVING");
      expect(await docker("exec", c.id, "id", "-u")).toBe("10001");
      expect(await docker("exec", c.id, "verdict-healthcheck").then(() => "healthy")).toBe("healthy");
      await docker("kill", "--signal", "TERM", c.id);
      expect(await docker("wait", c.id)).toBe("0");
    },
    120_000,
  );

  it("verdict-gateway answers /v1/health", async () => {
    const c = await start("verdict-gateway", 8080);
    expect((await until("gateway /v1/health", c.id, healthy(c.hostPort, "/v1/health"))).status).toBe("healthy");
    expect(await docker("exec", c.id, "verdict-healthcheck").then(() => "healthy")).toBe("healthy");
  }, 120_000);

  it("verdict-mcp answers /health", async () => {
    const c = await start("verdict-mcp", 8090);
    expect((await until("mcp /health", c.id, healthy(c.hostPort, "/health"))).status).toBe("healthy");
    expect(await docker("exec", c.id, "verdict-healthcheck").then(() => "healthy")).toBe("healthy");
  }, 120_000);
});

describe("the `verdict` command in the image", () => {
  const version = (JSON.parse(readFileSync(join(ROOT, "libs/cli/package.json"), "utf8")) as { version: string })
    .version;

  it("is the single executable: --version with no Node.js on PATH", async () => {
    // (/app/bin's other commands are scripts run by `env node`: without Node.js on PATH they could not start.)
    expect(await docker("run", "--rm", "-e", "PATH=/app/bin", IMAGE, "verdict", "--version")).toBe(version);
  });

  it("runs docs/install.md's command as written: evaluate --offline on a mounted directory", () => {
    const [command] = shellBlocks("docs/install.md", "## In the container image");
    expect(command).toContain(" verdict verdict evaluate --offline .");
    const dir = mkdtempSync(join(tmpdir(), "verdict-image-src-"));
    chmodSync(dir, 0o755); // read by the image's user
    writeFileSync(join(dir, "config.js"), `const key = "${AWS_KEY}";\n`, { mode: 0o644 });
    let failure: { status?: number; stdout?: string; stderr?: string } | undefined;
    try {
      bash(command!.replace(" verdict verdict ", ` ${IMAGE} verdict `), dir, { ...process.env, PWD: dir } as Record<
        string,
        string
      >);
    } catch (err) {
      failure = err as typeof failure;
    }
    expect(failure?.status).toBe(1);
    expect(failure?.stdout).toMatch(/^config\.js:1:\d+ error aws-credentials /m);
    expect(failure?.stderr).toMatch(/offline: policy version \S+ \(the built-in library of verdict /);
  }, 60_000);
});
