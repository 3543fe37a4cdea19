// Gitea (built from the Go module proxy by scripts/install-gitea.sh, cached under ~/.cache) as
// the real Git host of the connected-repositories suites: started with SQLite on a free port in a
// scratch directory of its own, an admin user and an API token, and helpers that drive it the
// way a user would (its REST API, and the real `git` over HTTP for pushes).
import { execFile, execFileSync, spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { promisify } from "node:util";
import { hangUpIdleConnections } from "./keepalive.js";
import { ROOT } from "./paths.js";

const run = promisify(execFile);

export interface Gitea {
  url: string;
  admin: { username: string; password: string; token: string };
  /** Calls Gitea's REST API as the admin; throws on a non-2xx answer with its body. */
  api<T = unknown>(method: string, path: string, body?: unknown): Promise<T>;
  createOrg(name: string): Promise<{ id: number; username: string }>;
  /** A repository of the organization with a first commit on `main`. */
  createRepo(org: string, name: string): Promise<GiteaRepo>;
  /** Clones the repository into a scratch directory, ready for commits and pushes with `git`. */
  clone(owner: string, repo: string): Promise<Checkout>;
  openPullRequest(owner: string, repo: string, head: string, base: string, title: string): Promise<{ number: number }>;
  /** An organization webhook of type gitea (JSON, HMAC-SHA256 signed with secret). */
  addOrgWebhook(org: string, url: string, secret: string): Promise<{ id: number }>;
  /** A new API token of the admin (all scopes), as a user makes one in Gitea's settings. */
  createToken(name: string): Promise<string>;
  /** Deletes (revokes) the admin's token of that name. */
  deleteToken(name: string): Promise<void>;
  output(): string;
  stop(): Promise<void>;
}

export interface GiteaRepo {
  id: number;
  full_name: string;
  default_branch: string;
  private: boolean;
}

export interface Checkout {
  dir: string;
  /** Runs git in the checkout (author and committer set), answering its stdout. */
  git(...args: string[]): Promise<string>;
  /** Writes files (path -> content), commits them all with message, answers the new head sha. */
  commit(files: Record<string, string | null>, message: string): Promise<string>;
}

/** The installed binary and its templates/options directory (scripts/install-gitea.sh). */
export function installGitea(): { bin: string; root: string } {
  const out = execFileSync("bash", [join(ROOT, "scripts/install-gitea.sh")], {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
  });
  const bin = out.trim().split("\n").pop()!;
  return { bin, root: dirname(bin) };
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

function appIni(work: string, root: string, port: number): string {
  // Gitea refuses to run as root unless told; the sandboxes run tests as root.
  const asRoot = process.getuid?.() === 0;
  return `APP_NAME = verdict-test
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
; Gitea refuses to deliver to 127.0.0.1 unless told: Verdict runs on loopback in the tests.
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

/** Starts a fresh Gitea; stop() kills it and deletes its directory. */
export async function startGitea(): Promise<Gitea> {
  const { bin, root } = installGitea();
  const work = mkdtempSync(join(tmpdir(), "verdict-gitea-"));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  mkdirSync(join(work, "custom/conf"), { recursive: true });
  const config = join(work, "custom/conf/app.ini");
  writeFileSync(config, appIni(work, root, port));
  const env = { ...process.env, GITEA_WORK_DIR: work, GITEA_CUSTOM: join(work, "custom"), HOME: work };
  const cli = (...args: string[]) => run(bin, [...args, "--config", config, "--work-path", work], { env });
  await cli("migrate");
  const admin = { username: "verdict-admin", password: randomBytes(12).toString("hex"), token: "" };
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
    "admin@verdict.test",
    "--must-change-password=false",
  );
  let out = "";
  const proc: ChildProcess = spawn(bin, ["web", "--config", config, "--work-path", work], {
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  proc.stdout!.on("data", (d: Buffer) => (out += d.toString()));
  proc.stderr!.on("data", (d: Buffer) => (out += d.toString()));
  const exited = new Promise<void>((resolve) => proc.once("exit", () => resolve()));
  const stop = async () => {
    // fetch's idle keep-alive connections to Gitea would hold the test process open.
    hangUpIdleConnections();
    if (proc.exitCode === null && proc.signalCode === null) {
      proc.kill("SIGTERM");
      await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
      if (proc.exitCode === null && proc.signalCode === null) proc.kill("SIGKILL");
    }
    rmSync(work, { recursive: true, force: true });
  };
  try {
    await waitUntilUp(url, proc, () => out);
  } catch (err) {
    await stop();
    throw err;
  }
  const basic = "Basic " + Buffer.from(`${admin.username}:${admin.password}`).toString("base64");
  // Gitea manages tokens only with the user's password (basic auth), never with a token.
  const tokens = async (method: string, path: string, body?: unknown): Promise<Response> => {
    const res = await fetch(`${url}/api/v1/users/${admin.username}/tokens${path}`, {
      method,
      headers: { authorization: basic, "content-type": "application/json" },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    if (!res.ok) throw new Error(`gitea ${method} token: ${res.status} ${await res.text()}`);
    return res;
  };
  const createToken = async (name: string) =>
    ((await (await tokens("POST", "", { name, scopes: ["all"] })).json()) as { sha1: string }).sha1;
  admin.token = await createToken("verdict-tests");

  const api = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const res = await fetch(`${url}/api/v1${path}`, {
      method,
      headers: { authorization: `token ${admin.token}`, "content-type": "application/json" },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`gitea ${method} ${path}: ${res.status} ${text}`);
    return (text ? JSON.parse(text) : undefined) as T;
  };

  return {
    url,
    admin,
    api,
    output: () => out,
    stop,
    createOrg: (name) => api("POST", "/orgs", { username: name, visibility: "private" }),
    createRepo: (org, name) =>
      api("POST", `/orgs/${org}/repos`, { name, auto_init: true, default_branch: "main", private: true }),
    openPullRequest: (owner, repo, head, base, title) =>
      api("POST", `/repos/${owner}/${repo}/pulls`, { head, base, title }),
    createToken,
    deleteToken: async (name) => void (await tokens("DELETE", `/${encodeURIComponent(name)}`)),
    addOrgWebhook: (org, target, secret) =>
      api("POST", `/orgs/${org}/hooks`, {
        type: "gitea",
        active: true,
        events: ["pull_request", "push"],
        config: { url: target, content_type: "json", secret },
      }),
    async clone(owner, repo) {
      const dir = mkdtempSync(join(work, "checkout-"));
      const remote = new URL(`${url}/${owner}/${repo}.git`);
      remote.username = admin.username;
      remote.password = admin.password;
      const git = async (...args: string[]) =>
        (
          await run(
            "git",
            [
              "-c",
              "user.name=Verdict Tests",
              "-c",
              "user.email=tests@verdict.test",
              "-c",
              "init.defaultBranch=main",
              ...args,
            ],
            { cwd: dir, env: { ...env, GIT_TERMINAL_PROMPT: "0" } },
          )
        ).stdout;
      await git("clone", "--quiet", remote.toString(), ".");
      return {
        dir,
        git,
        async commit(files, message) {
          for (const [path, content] of Object.entries(files)) {
            if (content === null) {
              await git("rm", "--quiet", path);
              continue;
            }
            mkdirSync(dirname(join(dir, path)), { recursive: true });
            writeFileSync(join(dir, path), content);
            await git("add", path);
          }
          await git("commit", "--quiet", "-m", message);
          return (await git("rev-parse", "HEAD")).trim();
        },
      };
    },
  };
}

async function waitUntilUp(url: string, proc: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (proc.exitCode !== null) throw new Error(`gitea exited (${proc.exitCode}):\n${output()}`);
    try {
      const res = await fetch(`${url}/api/v1/version`, { signal: AbortSignal.timeout(2_000) });
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`gitea did not answer within 60 s:\n${output()}`);
}
