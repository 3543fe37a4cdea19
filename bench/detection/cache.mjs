// Where the detection benchmark keeps what it fetches and builds, and how it runs the tools that
// fetch them. Everything is pinned and cached: a second run reads the cache and prints the same
// numbers. VERDICT_BENCH_CACHE moves the cache (default: $HOME/.cache/verdict/detection).
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { homedir } from "node:os";
import { dirname, join, resolve } from "node:path";
import process from "node:process";
import { pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";

export const CACHE = resolve(process.env.VERDICT_BENCH_CACHE || join(homedir(), ".cache", "verdict", "detection"));

export const cachePath = (...parts) => join(CACHE, ...parts);

/**
 * Takes the cache for this run, for as long as the process lives: a second run on the same cache
 * waits until the first has ended (two runs at once removed and rewrote each other's entries:
 * ENOTEMPTY). The lock is `.lock` in the cache, kept fresh while the run lives, so a lock whose
 * run was killed is taken over once it is `staleMs` old. Another cache, VERDICT_BENCH_CACHE,
 * runs at once. The lock is taken and refreshed by a thread of its own: the run's own thread
 * blocks for minutes in synchronous steps (Semgrep, gitleaks, `go install`), during which it
 * could not refresh it, and another run took it over as stale while the first still wrote. The
 * lock goes when the process exits; a killed run's, once stale.
 */
export async function holdCache({ staleMs = 30_000, pollMs = 5_000 } = {}) {
  mkdirSync(CACHE, { recursive: true });
  const lockfilePath = join(CACHE, ".lock");
  const worker = new Worker(LOCK_THREAD, {
    eval: true,
    workerData: {
      module: pathToFileURL(createRequire(import.meta.url).resolve("proper-lockfile")).href,
      cache: CACHE,
      lockfilePath,
      staleMs,
      pollMs,
    },
  });
  await new Promise((resolveHeld, reject) => {
    worker.on("error", reject);
    worker.on("exit", (code) => reject(new Error(`the benchmark cache's lock thread ended (${code})`)));
    worker.on("message", (m) => {
      if (m.waiting)
        note(
          `another run holds the benchmark cache ${CACHE}: waiting for it (VERDICT_BENCH_CACHE=DIR runs on a cache of its own)`,
        );
      else if (m.error) reject(new Error(`the benchmark cache's lock: ${m.error}`));
      else if (m.compromised)
        note(`warning: the benchmark cache's lock was taken over by another run (${m.compromised}); the figures stand`);
      else if (m.held) resolveHeld();
    });
  });
  worker.removeAllListeners("exit");
  worker.unref();
  // The run holds the lock until it exits: it goes then (the thread dies with the process).
  process.once("exit", () => rmSync(lockfilePath, { recursive: true, force: true }));
}

// The lock's thread (CommonJS or a module, as the run's input type makes an evaluated worker):
// takes the lock (waiting while another run holds it), then lives, refreshing
// it, as long as the run does (its port keeps it alive; the run does not wait for it).
const LOCK_THREAD = `
const { parentPort, workerData } = process.getBuiltinModule("node:worker_threads");
parentPort.on("message", () => undefined);
(async () => {
  const { lock } = (await import(workerData.module)).default;
  for (let told = false; ; told = true) {
    try {
      await lock(workerData.cache, {
        lockfilePath: workerData.lockfilePath,
        stale: workerData.staleMs,
        realpath: false,
        onCompromised: (err) => parentPort.postMessage({ compromised: err.message }),
      });
      parentPort.postMessage({ held: true });
      return;
    } catch (err) {
      if (err.code !== "ELOCKED") return parentPort.postMessage({ error: err.message });
      if (!told) parentPort.postMessage({ waiting: true });
      await new Promise((r) => setTimeout(r, workerData.pollMs));
    }
  }
})();
`;

/** Progress goes to stderr: stdout is the report. */
export function note(line) {
  process.stderr.write(`${line}\n`);
}

/** Runs a command to completion; throws with its stderr when it fails. Returns stdout. */
export function run(command, args, options = {}) {
  const result = spawnSync(command, args, { encoding: "utf8", maxBuffer: 1 << 30, ...options });
  if (result.error) throw new Error(`${command}: ${result.error.message}`);
  if (result.status !== 0) {
    throw new Error(
      `${command} ${args.join(" ")} exited ${result.status}:\n${(result.stderr || result.stdout || "").slice(-4000)}`,
    );
  }
  return result.stdout;
}

/** Whether `command` can be run (found on PATH or as a path). */
export function available(command, args = ["--version"]) {
  const result = spawnSync(command, args, { encoding: "utf8" });
  return !result.error && result.status === 0;
}

/** Writes a file atomically (a crash never leaves half a cache entry). */
export function writeAtomic(file, data) {
  mkdirSync(dirname(file), { recursive: true });
  const temp = `${file}.${process.pid}.tmp`;
  writeFileSync(temp, data);
  renameSync(temp, file);
}

/** A cached JSON document: read when present and `valid`, else made by `make` and stored. */
export function cachedJson(file, valid, make) {
  if (existsSync(file)) {
    const doc = JSON.parse(readFileSync(file, "utf8"));
    if (valid(doc)) return doc;
  }
  const doc = make();
  writeAtomic(file, `${JSON.stringify(doc, null, 1)}\n`);
  return doc;
}

/**
 * Downloads the source distribution of `name==version` from PyPI (pip) into the directory `work`
 * and unpacks it there; returns the sdist's top directory.
 */
export function pypiSdist(name, version, work) {
  run("python3", [
    "-m",
    "pip",
    "download",
    `${name}==${version}`,
    "--no-deps",
    "--no-binary",
    name,
    "--ignore-requires-python",
    "-d",
    work,
    "-q",
  ]);
  const sdist = readdirSync(work).find((f) => f.endsWith(".tar.gz"));
  if (!sdist) throw new Error(`pip download ${name}==${version}: no sdist`);
  const out = join(work, "sdist");
  mkdirSync(out);
  run("tar", ["xzf", join(work, sdist), "-C", out]);
  const [top] = readdirSync(out);
  return join(out, top);
}
