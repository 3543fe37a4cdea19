// Talking to a Verdict instance from a benchmark: start all-in-one on a free port with a temporary
// data directory, create an organization whose rate limits the load cannot reach, and post
// evaluations over kept-alive node:http connections (bench:api, bench:detection's speed part).
import { Buffer } from "node:buffer";
import { spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";
import { createInterface } from "node:readline";
import { clearTimeout, setTimeout } from "node:timers";
import { importBuilt, ROOT } from "./common.mjs";

const READY_TIMEOUT_MS = 60_000;
const STOP_TIMEOUT_MS = 20_000;
// Far above what this load sends, within what the API accepts.
// Far above what this load sends, within what the API accepts.
const UNREACHABLE_LIMITS = {
  per_minute: 10_000_000,
  per_hour: 10_000_000,
  per_day: 10_000_000,
  evaluations_create_per_minute: 10_000_000,
};

/** One API call; throws with the response body on any unexpected status. */
export async function call(base, key, method, path, body) {
  const res = await globalThis
    .fetch(`${base}${path}`, {
      method,
      headers: {
        Authorization: `Bearer ${key}`,
        ...(body === undefined ? {} : { "Content-Type": "application/json" }),
      },
      body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
    })
    .catch((err) => {
      throw new Error(`${method} ${base}${path}: ${err.cause?.message ?? err.message}`);
    });
  const text = await res.text();
  if (!res.ok) throw httpError(method, path, res.status, text);
  return text ? JSON.parse(text) : undefined;
}

export function httpError(method, path, status, text) {
  const hint =
    status === 429
      ? " (the organization's rate limits are too low for this load: raise them with PATCH /v1/organizations/{id})"
      : "";
  return new Error(`${method} ${path}: HTTP ${status}${hint}\n${text}`);
}

/** Starts Verdict all-in-one and resolves once it listens, with its URL and operator key. */
export async function startInstance() {
  const { generateKey } = await importBuilt("services/identity/dist/domain/apiKey.js");
  const dataDir = mkdtempSync(join(tmpdir(), "verdict-bench-data-"));
  const operatorKey = generateKey("prod");
  // VERDICT_BENCH_NODE_ARGS passes flags to the instance's node, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof".
  const nodeArgs = (process.env.VERDICT_BENCH_NODE_ARGS ?? "").split(" ").filter(Boolean);
  const child = spawn(process.execPath, [...nodeArgs, `${ROOT}services/all-in-one/dist/main.js`], {
    // Info level whatever the caller's environment says: the "ready" line is how this script
    // learns the port.
    env: {
      ...process.env,
      VERDICT_HTTP_HOST: "127.0.0.1",
      VERDICT_HTTP_PORT: "0",
      VERDICT_DATA_DIR: dataDir,
      VERDICT_BOOTSTRAP_API_KEY: operatorKey,
      VERDICT_LOG_LEVEL: "info",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = once(child, "exit");
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), STOP_TIMEOUT_MS);
      await exited;
      clearTimeout(timer);
    }
    rmSync(dataDir, { recursive: true, force: true });
  };
  let stderr = "";
  child.stderr.on("data", (chunk) => (stderr += chunk));
  // The log (JSON lines on stdout) is read to the end so the instance never blocks on it; its
  // "Verdict is ready" line names the port it took.
  const lines = createInterface({ input: child.stdout });
  try {
    const port = await new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error("Verdict did not start within 60 s")), READY_TIMEOUT_MS);
      lines.on("line", (line) => {
        if (!line.includes("Verdict is ready")) return;
        clearTimeout(timer);
        resolve(JSON.parse(line).http_port);
      });
      child.once("exit", (code) => {
        clearTimeout(timer);
        reject(new Error(`Verdict exited (code ${code}) before it was ready:\n${stderr}`));
      });
    });
    return { url: `http://127.0.0.1:${port}`, operatorKey, pid: child.pid, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}

/** An organization of its own for the load, with the API-key rules on; returns its admin key. */
export async function createBenchOrganization(url, operatorKey) {
  const created = await call(url, operatorKey, "POST", "/v1/organizations", {
    name: "bench",
    plan: "enterprise",
    rate_limits: UNREACHABLE_LIMITS,
  });
  const key = created.api_key.key;
  await call(url, key, "PATCH", "/v1/policies/hardcoded-credentials", { settings: { detect_api_keys: true } });
  return key;
}

/**
 * POST /v1/evaluations with a pre-encoded body over a kept-alive connection: the load generator
 * shares the machine's cores with the instance, so it does as little as it can (no per-request
 * JSON or UTF-8 encoding, no fetch streams). Resolves with the response text of a 201.
 */
export function evaluate(agent, url, key, body) {
  const path = "/v1/evaluations";
  return new Promise((resolve, reject) => {
    const req = request(`${url}${path}`, {
      method: "POST",
      agent,
      headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json", "Content-Length": body.length },
    });
    req.on("error", reject);
    req.on("response", (res) => {
      const chunks = [];
      res.on("data", (c) => chunks.push(c));
      res.on("error", reject);
      res.on("end", () => {
        const text = Buffer.concat(chunks).toString("utf8");
        if (res.statusCode === 201) resolve(text);
        else reject(httpError("POST", path, res.statusCode, text));
      });
    });
    req.end(body);
  });
}

/** CPU seconds (user + system) a process used so far, from /proc; undefined where there is none. */
export function processCpuSeconds(pid) {
  try {
    // Fields 14 and 15 (utime, stime) in clock ticks (USER_HZ: 100 on Linux), counted after the
    // command name's ")".
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return undefined;
  }
}
