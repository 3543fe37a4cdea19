// Data at rest in the all-in-one process's data directory: what an attacker with read access to
// the disk (a backup, a shared volume, another local user) finds, and two processes on one
// directory.
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { chmodSync, existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { Api } from "../support/api.js";
import { MAIN, ROOT, startVerdict, type Verdict } from "../support/server.js";

const BASE32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
const awsKey = () => `AKIA${Array.from(randomBytes(16), (b) => BASE32[b % 32]).join("")}`;

let v: Verdict;
let api: Api;
beforeAll(async () => {
  // Every evaluation is queued: its files are stored until a worker has checked them.
  v = await startVerdict({ env: { VERDICT_ASYNC_MIN_FILES: "1" } });
  api = new Api(v.url, v.bootstrapKey);
});
afterAll(async () => v.destroy());

/** Which files of the data directory, its subdirectories included (the evaluation queue), hold
 * these bytes. A queue file the service deletes between the listing and the read holds nothing. */
function filesContaining(dir: string, needle: string): string[] {
  const holds = (f: string): boolean => {
    try {
      return statSync(join(dir, f)).isFile() && readFileSync(join(dir, f)).includes(Buffer.from(needle));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "ENOENT") return false;
      throw err;
    }
  };
  return readdirSync(dir, { recursive: true, encoding: "utf8" }).filter(holds);
}

describe("queued evaluation files", () => {
  it("leave no readable copy of their secrets in verdict.db, verdict.db-wal or the queue's files once the evaluation completed", async () => {
    const secret = awsKey();
    const password = `pw-${randomBytes(24).toString("hex")}`;
    const res = await api.post("/v1/evaluations", {
      repository: "acme/payments",
      ref: "feature/leak",
      files: [
        { path: "src/config.js", content: `const accessKey = "${secret}";\n` },
        { path: "notes.txt", content: `the staging password is ${password}\n` },
      ],
    });
    expect(res.status).toBe(202);
    let done;
    for (let i = 0; i < 200; i++) {
      done = await api.get(`/v1/evaluations/${res.body.id}`);
      if (done.body.status !== "pending") break;
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(done!.body).toMatchObject({ status: "completed", passed: false });
    expect(done!.text).not.toContain(secret);
    // Deleted with secure_delete and the WAL checkpointed and truncated shortly after.
    let holding: string[] = [];
    for (let i = 0; i < 50; i++) {
      holding = [...filesContaining(v.dataDir, secret), ...filesContaining(v.dataDir, password)];
      if (!holding.length) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(holding).toEqual([]);
  });
});

describe("the data directory", () => {
  it("is 0700 and its files 0600", async () => {
    expect(statSync(v.dataDir).mode & 0o777).toBe(0o700);
    const files = readdirSync(v.dataDir).filter((f) => statSync(join(v.dataDir, f)).isFile());
    expect(files).toEqual(
      expect.arrayContaining(["verdict.db", "webhook-master.key", "report-signing.key", "report-private-key.pem"]),
    );
    for (const f of files)
      expect({ f, mode: (statSync(join(v.dataDir, f)).mode & 0o777).toString(8) }).toEqual({ f, mode: "600" });
    // Where queued evaluations' contents wait for a scan thread.
    expect((statSync(join(v.dataDir, "evaluation-queue")).mode & 0o777).toString(8)).toBe("700");
  });

  it("refuses a second instance with a clear message and exit code 2, leaving the first one serving", async () => {
    const second = spawn(process.execPath, [MAIN], {
      cwd: ROOT,
      env: {
        PATH: process.env.PATH ?? "",
        VERDICT_HTTP_PORT: "0",
        VERDICT_HTTP_HOST: "127.0.0.1",
        VERDICT_DATA_DIR: v.dataDir,
        VERDICT_BOOTSTRAP_API_KEY: v.bootstrapKey,
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    second.stdout.on("data", (d: Buffer) => (out += d.toString()));
    second.stderr.on("data", (d: Buffer) => (out += d.toString()));
    const code = await new Promise<number | null>((res) => second.once("exit", res));
    expect(code).toBe(2);
    expect(out).toContain(`VERDICT_DATA_DIR ${v.dataDir} is in use by another Verdict process`);
    expect(out).not.toContain("Verdict is ready");
    expect((await api.get("/v1/auth/verify")).status).toBe(200);
  });

  it("is checkpointed on shutdown: no WAL is left behind; a new instance starts on it and tightens loose modes", async () => {
    expect(await v.stop()).toBe(0);
    const wal = join(v.dataDir, "verdict.db-wal");
    expect(existsSync(wal) ? statSync(wal).size : 0).toBe(0);
    // As an earlier version left them: a 0755 directory, a 0644 database.
    chmodSync(v.dataDir, 0o755);
    chmodSync(join(v.dataDir, "verdict.db"), 0o644);
    const again = await startVerdict({ dataDir: v.dataDir, bootstrapKey: v.bootstrapKey });
    try {
      expect((await new Api(again.url, v.bootstrapKey).get("/v1/auth/verify")).status).toBe(200);
      expect((statSync(v.dataDir).mode & 0o777).toString(8)).toBe("700");
      expect((statSync(join(v.dataDir, "verdict.db")).mode & 0o777).toString(8)).toBe("600");
    } finally {
      await again.stop();
    }
  });
});
