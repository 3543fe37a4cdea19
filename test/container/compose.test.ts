// The compose stack (deploy/compose/compose.yaml) run the way docs/distributed.md says: `docker compose
// up -d --wait` on the images deploy/compose/images.sh built (here on the local bases), the
// secrets from a .env beside the compose file, a change evaluated over HTTP through the gateway,
// one service restarted while work is queued (nothing is lost), then `down -v`.
// Needs DOCKER_HOST, `docker compose` (scripts/install-compose.sh) and the images in
// VERDICT_TEST_IMAGE, VERDICT_KAFKA_IMAGE and VERDICT_FERRETDB_IMAGE: scripts/test-container.sh
// provides all of them and runs this suite.
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { execFile } from "node:child_process";
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { randomBytes } from "node:crypto";
import { promisify } from "node:util";
import { Api } from "../support/api.js";
import { makeKey } from "../support/keys.js";
import { ROOT } from "../support/paths.js";

const run = promisify(execFile);
const project = `verdict-test-${randomBytes(4).toString("hex")}`;
const dir = mkdtempSync(join(tmpdir(), "verdict-compose-"));
const file = join(dir, "compose.yaml");
const key = makeKey();
let httpPort = 0;
let api: Api;
let firstId = "";

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, "127.0.0.1", () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

/** `docker compose -p <project> -f <dir>/compose.yaml ...`, with the images under test. */
async function compose(...args: string[]): Promise<string> {
  const env = {
    ...process.env,
    VERDICT_IMAGE: process.env.VERDICT_TEST_IMAGE,
    VERDICT_HTTP_PORT: String(httpPort),
  };
  try {
    const { stdout, stderr } = await run("docker", ["compose", "-p", project, "-f", file, ...args], {
      env,
      maxBuffer: 64 * 1024 * 1024,
    });
    return stdout + stderr;
  } catch (err) {
    const e = err as { stdout?: string; stderr?: string; message: string };
    throw new Error(`docker compose ${args.join(" ")} failed: ${e.message}\n${e.stdout ?? ""}${e.stderr ?? ""}`, {
      cause: err,
    });
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until(what: string, fn: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const end = Date.now() + timeoutMs;
  let last: unknown;
  while (Date.now() < end) {
    try {
      if (await fn()) return;
    } catch (err) {
      last = err;
    }
    await sleep(500);
  }
  // The evaluation service's own log first (the gateway's polls would crowd it out of a shared
  // tail), the containers' states, then every service's last lines.
  const diagnostics = [
    await compose("ps", "-a").catch(String),
    await compose("logs", "--no-color", "--tail", "150", "evaluation").catch(String),
    await compose("logs", "--no-color", "--tail", "20").catch(String),
  ].join("\n");
  throw new Error(`timed out waiting for ${what}${last ? `: ${String(last)}` : ""}\n${diagnostics}`);
}

/** At VERDICT_ASYNC_MIN_FILES (default 200) files a change is queued for the evaluation worker. */
function queuedChange(n: number) {
  const files = Array.from({ length: 200 }, (_, i) => ({
    path: `src/file${i}.js`,
    content:
      i === 0 ? `const key = "AKIAZ7VQ3X4M2N8P5R${String(n).padStart(2, "0")}";\n` : `export const x${i} = ${i};\n`,
  }));
  return { repository: `acme/compose-${n}`, ref: "main", files };
}

beforeAll(async () => {
  for (const v of ["VERDICT_TEST_IMAGE", "VERDICT_KAFKA_IMAGE", "VERDICT_FERRETDB_IMAGE"]) {
    if (!process.env[v]) throw new Error(`${v} is not set: run bash scripts/test-container.sh`);
  }
  httpPort = await freePort();
  // What docs/distributed.md tells a user: the compose file and a .env made from .env.example with their
  // own secrets (here in a copy of deploy/compose, so that the repository's stays untouched).
  copyFileSync(join(ROOT, "deploy/compose/compose.yaml"), file);
  const example = readFileSync(join(ROOT, "deploy/compose/.env.example"), "utf8");
  writeFileSync(
    join(dir, ".env"),
    example
      .replace(/^VERDICT_BOOTSTRAP_API_KEY=.*$/m, `VERDICT_BOOTSTRAP_API_KEY=${key}`)
      .replace(/^VERDICT_WEBHOOK_MASTER_KEY=.*$/m, `VERDICT_WEBHOOK_MASTER_KEY=${randomBytes(32).toString("base64")}`)
      .replace(
        /^VERDICT_REPORT_SIGNING_KEY=.*$/m,
        `VERDICT_REPORT_SIGNING_KEY=${randomBytes(32).toString("base64url")}`,
      ),
  );
  api = new Api(`http://127.0.0.1:${httpPort}`, key);
}, 30_000);

afterAll(async () => {
  await compose("down", "-v", "--timeout", "30").catch((err: unknown) => process.stderr.write(`${String(err)}\n`));
  rmSync(dir, { recursive: true, force: true });
}, 180_000);

describe("the compose stack", () => {
  it("refuses to start without its secrets", async () => {
    const bare = join(dir, "bare");
    rmSync(bare, { recursive: true, force: true });
    await run("mkdir", [bare]);
    copyFileSync(file, join(bare, "compose.yaml"));
    const err = await run("docker", ["compose", "-p", `${project}-bare`, "-f", join(bare, "compose.yaml"), "config"], {
      env: {
        ...process.env,
        VERDICT_BOOTSTRAP_API_KEY: "",
        VERDICT_WEBHOOK_MASTER_KEY: "",
        VERDICT_REPORT_SIGNING_KEY: "",
      },
    }).then(
      () => undefined,
      (e: { stderr?: string }) => e,
    );
    expect(err?.stderr).toMatch(/VERDICT_(BOOTSTRAP_API_KEY|WEBHOOK_MASTER_KEY|REPORT_SIGNING_KEY)/);
  });

  it("comes up healthy: non-root, read-only roots, only the gateway and MCP published on 127.0.0.1", async () => {
    await compose("up", "-d", "--wait", "--wait-timeout", "420");
    const ps = (await compose("ps", "--format", "json"))
      .trim()
      .split("\n")
      .filter(Boolean)
      .map(
        (l) =>
          JSON.parse(l) as {
            Service: string;
            Health: string;
            State: string;
            Publishers?: { URL: string; PublishedPort: number }[];
          },
      );
    expect(ps.map((s) => s.Service).sort()).toEqual([
      "compliance",
      "evaluation",
      "gateway",
      "identity",
      "kafka",
      "mcp",
      "mongodb",
      "policy",
      "webhooks",
    ]);
    for (const s of ps)
      expect({ service: s.Service, state: s.State, health: s.Health }).toEqual({
        service: s.Service,
        state: "running",
        health: "healthy",
      });
    const published = ps.flatMap((s) =>
      (s.Publishers ?? []).filter((p) => p.PublishedPort).map((p) => `${s.Service} ${p.URL}`),
    );
    expect(published.sort()).toEqual(["gateway 127.0.0.1", "mcp 127.0.0.1"]);
    const ids = (await compose("ps", "-q")).trim().split("\n");
    for (const id of ids) {
      const { stdout } = await run("docker", [
        "inspect",
        "--format",
        "{{.HostConfig.ReadonlyRootfs}} {{.Config.User}}",
        id,
      ]);
      expect(stdout.trim()).toBe("true 10001:10001");
    }
    const health = await api.get("/v1/health", { key: null });
    expect(health.status).toBe(200);
  }, 480_000);

  it("evaluates a change over HTTP through the gateway", async () => {
    const res = await api.post("/v1/evaluations", {
      repository: "acme/compose",
      ref: "main",
      files: [{ path: "config.js", content: 'const key = "AKIAZ7VQ3X4M2N8P5R77";\n' }],
    });
    expect(res.status).toBe(201);
    expect(res.body.status).toBe("completed");
    expect(res.body.violations).toHaveLength(1);
    expect(res.body.violations[0].policy_id).toBe("aws-credentials");
    firstId = res.body.id;
  }, 60_000);

  it("loses nothing when the evaluation service restarts with work queued", async () => {
    const before = await api.get(`/v1/evaluations/${firstId}`);
    expect(before.status).toBe(200);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await api.post("/v1/evaluations", queuedChange(i));
      expect(res.status).toBe(202);
      ids.push(res.body.id);
    }
    await compose("restart", "evaluation");
    for (const id of ids) {
      await until(
        `${id} to complete`,
        async () => (await api.get(`/v1/evaluations/${id}`)).body?.status === "completed",
        300_000,
      );
      const e = (await api.get(`/v1/evaluations/${id}`)).body;
      expect(e.summary.total_violations).toBe(1);
      expect(e.violations).toHaveLength(1);
    }
    // The evaluation made before the restart is still there (FerretDB on its volume).
    const after = await api.get(`/v1/evaluations/${firstId}`);
    expect(after.status).toBe(200);
    expect(after.body).toEqual(before.body);
  }, 600_000);

  it("down -v removes the containers and the volumes", async () => {
    await compose("down", "-v", "--timeout", "30");
    const { stdout: containers } = await run("docker", [
      "ps",
      "-a",
      "-q",
      "--filter",
      `label=com.docker.compose.project=${project}`,
    ]);
    expect(containers.trim()).toBe("");
    const { stdout: volumes } = await run("docker", [
      "volume",
      "ls",
      "-q",
      "--filter",
      `label=com.docker.compose.project=${project}`,
    ]);
    expect(volumes.trim()).toBe("");
  }, 180_000);
});
