// What both benchmarks share: the built packages they measure, the policy set, timing, and
// printing. They import the compiled output (`pnpm run build` first), never the sources.
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import process from "node:process";
import { resolve, sep } from "node:path";
import { fileURLToPath, URL } from "node:url";

/**
 * The repository whose built packages are measured: VERDICT_ROOT (another worktree's build, say),
 * else the one this script is in. Always ends with a separator.
 */
export const ROOT = process.env.VERDICT_ROOT
  ? `${resolve(process.env.VERDICT_ROOT)}${sep}`
  : fileURLToPath(new URL("..", import.meta.url));

/**
 * VERDICT_BENCH_QUICK=1: a smoke run of any of the benchmarks on tiny inputs (seconds, not
 * minutes), for the tests that run every command the README shows. Its figures mean nothing.
 */
export const QUICK = process.env.VERDICT_BENCH_QUICK === "1";

/** Writes a line of the report to stdout (the benchmarks' output is their report). */
export function print(line = "") {
  process.stdout.write(`${line}\n`);
}

/** Imports a module of a built package, or explains how to build it. */
export async function importBuilt(relativePath) {
  const file = `${ROOT}${relativePath}`;
  if (!existsSync(file)) {
    process.stderr.write(`${relativePath} is missing: run \`pnpm run build\` at the repository root first.\n`);
    process.exit(1);
  }
  return import(file);
}

export const { compileEngine } = await importBuilt("services/evaluation/dist/domain/engine.js");
export const { resolveBuiltins, BUILTIN_POLICIES } = await importBuilt("services/policy/dist/index.js");

/** node-re2, the same build the evaluation service uses (it is not a root dependency). */
export const RE2 = createRequire(`${ROOT}services/evaluation/package.json`)("re2");

/** The full built-in library: every policy and every rule, the optional API-key rules too. */
export const FULL_BUILTIN_SETTINGS = { "hardcoded-credentials": { detect_api_keys: true } };

export const patternCount = (policies) => policies.reduce((n, p) => n + p.patterns.length, 0);

/** The RE2 sources of the library's regex rules: what a naive loop or ripgrep can run (the
 * syntax-aware "structural" rules are JSON for the engine's tree matcher, not expressions). */
export const regexSources = (policies) =>
  policies.flatMap((p) => p.patterns.filter((r) => r.type !== "structural").map((r) => r.value));

/** Seconds taken by `fn`, and what it returned. */
export function timed(fn) {
  const start = process.hrtime.bigint();
  const result = fn();
  return { seconds: Number(process.hrtime.bigint() - start) / 1e9, result };
}

/**
 * One warm-up run (JIT, caches, RE2's lazily built DFA states, the page cache for ripgrep), then
 * the median of `runs` timed runs. Returns that median, the warm-up's time and its result.
 */
export function warmMedian(fn, runs = 3) {
  const first = timed(fn);
  const times = [];
  for (let i = 0; i < runs; i++) times.push(timed(fn).seconds);
  return { seconds: median(times), firstSeconds: first.seconds, result: first.result };
}

/** CPU seconds of this process's finished children (cutime + cstime in /proc; Linux). */
export function childrenCpuSeconds() {
  const fields = readFileSync("/proc/self/stat", "utf8").split(") ")[1].split(" ");
  return (Number(fields[13]) + Number(fields[14])) / 100;
}

export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

// Throughputs are in MB (10^6 bytes) per second.
export const MB = 1e6;
export const fmtInt = (n) => n.toLocaleString("en-US");
export const fmtMB = (bytes) => `${(bytes / MB).toFixed(2)} MB`;
export const fmtRate = (bytesPerSecond) => (bytesPerSecond / MB).toFixed(1);

/** Prints rows (arrays of cells) as columns: the first left-aligned, the others right-aligned. */
export function printTable(rows) {
  const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => String(r[c] ?? "").length)));
  for (const row of rows) {
    const cells = row.map((cell, c) =>
      c === 0 ? String(cell).padEnd(widths[c]) : String(cell ?? "").padStart(widths[c]),
    );
    print(`  ${cells.join("   ")}`.trimEnd());
  }
}

/** "12.3x   target >= 10x   met" */
export function ratioLine(ratio, target) {
  return `${ratio.toFixed(2)}x   target >= ${target}x   ${ratio >= target ? "met" : "MISSED"}`;
}

export function peakRss() {
  // maxRSS is in kilobytes.
  return `${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB`;
}
