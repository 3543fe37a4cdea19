// The benchmark cache's lock (cache.mjs, holdCache): two runs on one cache take turns, and a run
// that was killed does not hold the cache for ever. Each run here is a process of its own, as
// two `pnpm bench:detection` are.
// Run with `node --test bench/detection/*.test.mjs`.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";
import { after, test } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";

const cache = mkdtempSync(join(tmpdir(), "verdict-bench-cache-"));
const children = [];
after(() => {
  for (const child of children) child.kill("SIGKILL");
  rmSync(cache, { recursive: true, force: true });
});

/**
 * A run that takes the cache, says so, and ends when its standard input does (or when killed);
 * `blockMs`: then its thread blocks that long (as a synchronous step, spawnSync of Semgrep, does)
 * and says so after.
 */
function run(name, options = "", blockMs = 0) {
  const code = `const { holdCache } = await import(${JSON.stringify(new globalThis.URL("./cache.mjs", import.meta.url).href)});
await holdCache({ pollMs: 100${options} });
console.log("${name} holds the cache");
if (${blockMs}) { Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ${blockMs}); console.log("${name} unblocked"); }
process.stdin.resume().on("end", () => process.exit(0));`;
  const child = spawn(process.execPath, ["--input-type=module", "-e", code], {
    env: { ...process.env, VERDICT_BENCH_CACHE: cache },
  });
  children.push(child);
  const seen = { stdout: "", stderr: "" };
  child.stdout.on("data", (d) => (seen.stdout += d));
  child.stderr.on("data", (d) => (seen.stderr += d));
  const held = new Promise((resolve) => child.stdout.on("data", () => seen.stdout.includes("holds") && resolve()));
  const waiting = new Promise((resolve) => child.stderr.on("data", () => seen.stderr.includes("waiting") && resolve()));
  const ended = new Promise((resolve) => child.on("exit", (code, signal) => resolve({ code, signal })));
  return { child, seen, held, waiting, ended };
}

test("a second run on the same cache waits until the first has ended", { timeout: 60_000 }, async () => {
  const first = run("first");
  await first.held;
  const order = [];
  const second = run("second");
  second.held.then(() => order.push("second holds"));
  await second.waiting;
  assert.match(second.seen.stderr, /another run holds the benchmark cache .*: waiting for it/);
  await sleep(500);
  assert.deepEqual(order, [], "the second run took the cache while the first held it");
  first.child.stdin.end();
  assert.equal((await first.ended).code, 0);
  await second.held;
  second.child.stdin.end();
  assert.equal((await second.ended).code, 0);
  assert.deepEqual(order, ["second holds"]);
});

test("a run that was killed leaves a lock the next run takes over once it is stale", { timeout: 60_000 }, async () => {
  const killed = run("killed", ", staleMs: 2000");
  await killed.held;
  killed.child.kill("SIGKILL");
  assert.equal((await killed.ended).signal, "SIGKILL");
  const next = run("next", ", staleMs: 2000");
  await next.held;
  next.child.stdin.end();
  assert.equal((await next.ended).code, 0);
  assert.match(next.seen.stdout, /next holds the cache/);
});

test("a run whose thread blocks past the stale time keeps the cache", { timeout: 60_000 }, async () => {
  const blocked = run("blocked", ", staleMs: 2000", 6000);
  await blocked.held;
  const order = [];
  const other = run("other", ", staleMs: 2000");
  other.held.then(() => order.push("other holds"));
  await other.waiting;
  // Three times the stale time with the first run's thread blocked: its lock thread refreshed it.
  while (!blocked.seen.stdout.includes("blocked unblocked")) await sleep(100);
  assert.deepEqual(order, [], "the other run took over the lock of a run whose thread was blocked");
  blocked.child.stdin.end();
  assert.equal((await blocked.ended).code, 0);
  assert.doesNotMatch(blocked.seen.stderr, /taken over|Error/);
  await other.held;
  other.child.stdin.end();
  assert.equal((await other.ended).code, 0);
});
