// Gitea for bench:pr: the binary scripts/install-gitea.sh builds and caches (~/.cache/verdict-gitea),
// started with SQLite on a free port in a scratch directory of its own, with an admin user and an
// API token. The same set-up as the connected-repositories suites (test/support/gitea.ts), in the
// benchmarks' plain JavaScript; stop() kills it and deletes its directory.
import { execFile, execFileSync, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { once } from "node:events";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import process from "node:process";
import { URL } from "node:url";
import { Buffer } from "node:buffer";
import { setTimeout as sleep } from "node:timers/promises";
import { promisify } from "node:util";
import { ROOT } from "./common.mjs";

const run = promisify(execFile);

function freePort() {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

function appIni(work, root, port) {
  // Gitea refuses to run as root unless told; the sandboxes run as root.
  const asRoot = process.getuid?.() === 0;
  return `APP_NAME = verdict-bench
RUN_MODE = prod
RUN_USER = ${process.env.USER ?? (asRoot ? "root" : "")}
WORK_PATH = ${work}
${asRoot ? "I_AM_BEING_UNSAFE_RUNNING_AS_ROOT = true" : ""}
[server]
PROTOCOL = http
HTTP_ADDR = 127.0.0.1
HTTP_PORT = ${port}
ROOT_URL = http://127.0.0.1:${port}/
DISABLE_SSH = true
START_SSH_SERVER = false
OFFLINE_MODE = true
LFS_START_SERVER = false
STATIC_ROOT_PATH = ${root}
APP_DATA_PATH = ${work}/data
[database]
DB_TYPE = sqlite3
PATH = ${work}/data/gitea.db
[repository]
ROOT = ${work}/repositories
[security]
INSTALL_LOCK = true
SECRET_KEY = ${randomBytes(24).toString("hex")}
INTERNAL_TOKEN = ${randomBytes(48).toString("base64url")}
[oauth2]
JWT_SECRET = ${randomBytes(32).toString("base64url")}
[service]
DISABLE_REGISTRATION = true
[webhook]
ALLOWED_HOST_LIST = loopback
DELIVER_TIMEOUT = 10
[session]
PROVIDER = memory
[cache]
ADAPTER = memory
[mailer]
ENABLED = false
[cron]
ENABLED = false
[log]
MODE = console
LEVEL = Warn
ROOT_PATH = ${work}/log
`;
}

/** Starts a fresh Gitea; resolves with its URL, version, admin, an API caller, clone() and stop(). */
export async function startGitea() {
  const out = execFileSync("bash", [join(ROOT, "scripts/install-gitea.sh")], {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
  });
  const bin = out.trim().split("\n").pop();
  const work = mkdtempSync(join(tmpdir(), "verdict-bench-gitea-"));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  mkdirSync(join(work, "custom/conf"), { recursive: true });
  const config = join(work, "custom/conf/app.ini");
  writeFileSync(config, appIni(work, dirname(bin), port));
  const env = { ...process.env, GITEA_WORK_DIR: work, GITEA_CUSTOM: join(work, "custom"), HOME: work };
  const cli = (...args) => run(bin, [...args, "--config", config, "--work-path", work], { env });
  await cli("migrate");
  const admin = { username: "verdict-bench", password: randomBytes(12).toString("hex"), token: "" };
  await cli(
    "admin",
    "user",
    "create",
    "--admin",
    "--username",
    admin.username,
    "--password",
    admin.password,
    "--email",
    "bench@verdict.test",
    "--must-change-password=false",
  );
  let log = "";
  const proc = spawn(bin, ["web", "--config", config, "--work-path", work], { env, stdio: ["ignore", "pipe", "pipe"] });
  proc.stdout.on("data", (d) => (log += d));
  proc.stderr.on("data", (d) => (log += d));
  const stop = async () => {
    if (proc.exitCode === null && proc.signalCode === null) {
      const exited = once(proc, "exit");
      proc.kill("SIGTERM");
      await Promise.race([exited, sleep(10_000)]);
      if (proc.exitCode === null && proc.signalCode === null) proc.kill("SIGKILL");
    }
    rmSync(work, { recursive: true, force: true });
  };
  try {
    const deadline = Date.now() + 60_000;
    for (;;) {
      if (proc.exitCode !== null) throw new Error(`gitea exited (${proc.exitCode}):\n${log}`);
      const up = await globalThis
        .fetch(`${url}/api/v1/version`, { signal: globalThis.AbortSignal.timeout(2_000) })
        .catch(() => null);
      if (up?.ok) break;
      if (Date.now() > deadline) throw new Error(`gitea did not answer within 60 s:\n${log}`);
      await sleep(250);
    }
    // Gitea makes tokens only with the user's password (basic auth).
    const basic = "Basic " + Buffer.from(`${admin.username}:${admin.password}`).toString("base64");
    const made = await globalThis.fetch(`${url}/api/v1/users/${admin.username}/tokens`, {
      method: "POST",
      headers: { authorization: basic, "content-type": "application/json" },
      body: JSON.stringify({ name: "verdict-bench", scopes: ["all"] }),
    });
    if (!made.ok) throw new Error(`gitea token: ${made.status} ${await made.text()}`);
    admin.token = (await made.json()).sha1;
  } catch (err) {
    await stop();
    throw err;
  }

  /** Gitea's REST API as the admin; throws on a non-2xx answer with its body. */
  const api = async (method, path, body) => {
    const res = await globalThis.fetch(`${url}/api/v1${path}`, {
      method,
      headers: { authorization: `token ${admin.token}`, "content-type": "application/json" },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`gitea ${method} ${path}: ${res.status} ${text}`);
    return text ? JSON.parse(text) : undefined;
  };
  const { version } = await api("GET", "/version");

  /** A clone in the scratch directory: git(...args) runs git there as a fixed author. */
  const clone = async (owner, repo) => {
    const dir = mkdtempSync(join(work, "checkout-"));
    const remote = new URL(`${url}/${owner}/${repo}.git`);
    remote.username = admin.username;
    remote.password = admin.password;
    const git = async (...args) =>
      (
        await run("git", ["-c", "user.name=Verdict Bench", "-c", "user.email=bench@verdict.test", ...args], {
          cwd: dir,
          env: { ...env, GIT_TERMINAL_PROMPT: "0" },
          maxBuffer: 64 * 1024 * 1024,
        })
      ).stdout;
    await git("clone", "--quiet", remote.toString(), ".");
    return { dir, git };
  };
  return { url, version, admin, api, clone, stop, output: () => log };
}
