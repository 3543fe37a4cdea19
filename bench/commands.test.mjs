// The benchmark commands docs/performance.md shows (`pnpm bench:engine`, `bench:engine-builds`, `bench:api`, `bench:pr`,
// `bench:cli`, `bench:neighbour`, `bench:history`, `bench:offline` with the single file), each run for real through pnpm in its smoke mode (VERDICT_BENCH_QUICK=1:
// tiny inputs, the same code paths: generated corpus, all-in-one started and stopped, the real
// CLI, the real attack). Asserted: the command succeeds and prints its table with every figure a
// positive number. The figures themselves mean nothing at this size.
// Run: node --test bench/commands.test.mjs (after `pnpm run build`).
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import process from "node:process";
import { test } from "node:test";
import { fileURLToPath, URL } from "node:url";

const ROOT = fileURLToPath(new URL("..", import.meta.url));

/** Runs `pnpm <script> [args]` at the repository root in smoke mode; returns its report (stdout). */
function bench(script, args = [], env = {}, timeout = 180_000) {
  const result = spawnSync("pnpm", ["--silent", script, ...args], {
    cwd: ROOT,
    encoding: "utf8",
    env: { ...process.env, VERDICT_BENCH_QUICK: "1", ...env },
    timeout,
  });
  assert.equal(result.error, undefined, String(result.error));
  assert.equal(result.status, 0, `pnpm ${script} exited ${result.status}:\n${result.stdout}\n${result.stderr}`);
  return result.stdout;
}

/** The line of the report that starts (after the indent) with `label`, split into its columns. */
function row(report, label) {
  const line = report.split("\n").find((l) => l.trimStart().startsWith(label));
  assert.ok(line, `no row "${label}" in:\n${report}`);
  return line
    .slice(line.indexOf(label) + label.length)
    .trim()
    .split(/\s{2,}/);
}

/** A figure as printed (1,234.5 / 0.42), which must be a positive number. */
function positive(cell, what) {
  const n = Number(String(cell).replace(/,/g, ""));
  assert.ok(Number.isFinite(n) && n > 0, `${what}: "${cell}" is not a positive number`);
  return n;
}

/** "12.34x   target >= 10x   met" → 12.34 */
function ratio(report, label) {
  const [cell] = row(report, label);
  assert.match(cell, /^\d[\d,]*\.\d+x$/, `${label}: ${cell}`);
  return positive(cell.slice(0, -1), label);
}

test("pnpm bench:engine prints the engine, naive and ripgrep rows and their ratios", () => {
  const report = bench("bench:engine");
  assert.match(report, /corpus\s+generated \(seed 1\): [\d,]+ files, \d+\.\d\d MB/);
  const [mbs, median, first, compile, findings] = row(report, "engine (one RE2.Set)");
  positive(mbs, "engine MB/s");
  positive(median, "engine seconds");
  positive(first, "engine first run");
  positive(compile, "engine compile ms");
  assert.match(findings, /^[\d,]+ findings$/);
  // The naive row's label goes on after "naive (": "N RE2, exec loop)".
  const naive = row(report, "naive (");
  assert.match(naive[0], /^\d+ RE2, exec loop\)$/);
  positive(naive[1], "naive MB/s");
  ratio(report, "engine / naive");
  // The engine reading keyword windows against its whole-file search: the same findings.
  const whole = row(report, "engine, whole files (wholeFiles)");
  positive(whole[0], "whole-file engine MB/s");
  // The whole-file row has no compile column: its findings are its last cell.
  assert.equal(whole.at(-1), findings);
  assert.match(report, /keyword windows \/ whole files\s+\d+\.\d\dx per CPU-second \(.*\), the same findings/);
  // Side by side: the library without the provider families, and the throughput ratio.
  positive(row(report, "engine without provider-tokens (")[1], "engine without families MB/s");
  ratio(report, "with / without provider families");
  ratio(report, "the same, per CPU-second");
  const rg = row(report, "ripgrep -j1");
  if (rg[0] !== "n/a") {
    positive(rg[0], "ripgrep MB/s");
    ratio(report, "engine / ripgrep");
  }
});

test("pnpm bench:engine-builds prints two builds' secrets engines side by side and their ratio", () => {
  // This checkout against itself (the smoke run: one round, a generated 0.3 MB).
  const report = bench("bench:engine-builds", [ROOT]);
  assert.match(report, /round 1 {2}baseline +\d+ rules +\d+\.\d MB per CPU-second/);
  assert.match(report, /round 1 {2}this build +\d+ rules +\d+\.\d MB per CPU-second/);
  ratio(report, "this build / baseline");
  assert.match(report, /findings: (\d+) and \1 \(the same number\)/);
  // No baseline, or one that is not a built checkout: a usage error, not a crash.
  const missing = spawnSync("pnpm", ["--silent", "bench:engine-builds", "/nonexistent"], {
    cwd: ROOT,
    encoding: "utf8",
  });
  assert.equal(missing.status, 2);
  assert.match(missing.stderr, /usage: pnpm bench:engine-builds BASELINE/);
});

test("pnpm bench:api prints the API and in-process engine rows, the ratio and the CPU per request", () => {
  const report = bench("bench:api");
  const [mbs, reqs, p50, p99, requests] = row(report, "API (POST /v1/evaluations)");
  for (const [cell, what] of [
    [mbs, "MB/s"],
    [reqs, "req/s"],
    [p50, "p50"],
    [p99, "p99"],
    [requests, "requests"],
  ])
    positive(cell, `API ${what}`);
  positive(row(report, "engine in-process, 1 thread")[0], "engine MB/s");
  ratio(report, "API / engine");
  positive(row(report, "engine (matching)")[0].replace(/ ms$/, ""), "engine ms per request");
  positive(row(report, "Verdict under load, all threads (/proc)")[0].replace(/ ms$/, ""), "Verdict CPU per request");
});

test("pnpm bench:cli 1 runs verdict evaluate and the API on the same 1 MB tree, same files and findings", () => {
  const report = bench("bench:cli", ["1"]);
  assert.doesNotMatch(report, /WARNING/);
  const api = row(report, "API (POST /v1/evaluations, bodies pre-encoded)");
  const cli = row(report, "CLI (verdict evaluate,");
  // The CLI row's label ends in "N evaluations)": the figures follow it.
  const cliFigures = cli.slice(cli.findIndex((c) => c.endsWith("evaluations)")) + 1);
  for (const [cells, side] of [
    [api, "API"],
    [cliFigures, "CLI"],
  ]) {
    const [mbs, seconds, files] = cells;
    positive(mbs, `${side} MB/s`);
    positive(seconds, `${side} seconds`);
    positive(files, `${side} files`);
  }
  assert.equal(cliFigures[2], api[2], "the CLI and the API saw the same files");
  assert.equal(cliFigures[3], api[3], "the CLI and the API reported the same findings");
  ratio(report, "CLI / API");
});

test("pnpm bench:history prints gitleaks' and Verdict's rows (every policy and secrets only, server and offline) on the same small history, the ratios and the differences", () => {
  const report = bench("bench:history", [], { VERDICT_BENCH_ROUNDS: "2" });
  const gitleaks = row(report, "gitleaks");
  const cells = gitleaks.slice(gitleaks.length - 5);
  positive(cells[0], "gitleaks commits/s");
  positive(cells[1], "gitleaks seconds");
  for (const label of [
    "every policy: verdict scan history",
    "every policy: verdict scan history --offline",
    "secrets only: verdict scan history",
    "secrets only: verdict scan history --offline",
  ]) {
    const verdict = row(report, label);
    positive(verdict[0], `${label} commits/s`);
    positive(verdict[1], `${label} seconds`);
    positive(verdict[3], `${label} CPU`);
    assert.equal(verdict[2], "3 (3)", `${label}: finds the three keys of the small history`);
  }
  for (const label of ["every policy", "every policy, offline", "secrets only", "secrets only, offline"]) {
    ratio(report, `${label} / gitleaks, wall`);
    ratio(report, `${label} / gitleaks, per CPU-second`);
  }
  for (const label of [
    "offline against the server, every policy: 0 only offline, 0 only the server",
    "offline against the server, secrets only: 0 only offline, 0 only the server",
    "secrets only against every policy's secrets: 0 only secrets only, 0 only every policy",
  ])
    assert.match(report, new RegExp(`^ {2}${label.replace(/[()]/g, "\\$&")}$`, "m"));
  assert.match(report, /^ {2}only Verdict \(\d+\):$/m);
  assert.match(report, /^ {2}only gitleaks \(\d+\):$/m);
  // VERDICT_BENCH_ROUNDS=2: two more rounds, alternating, and their medians' ratios.
  for (const label of ["round 1", "round 2"]) {
    const [load, gSeconds, gCpu, eSeconds, eCpu, eFound, sSeconds, sCpu, sFound] = row(report, label);
    assert.match(load, /^\d+\.\d, \d+\.\d, \d+\.\d$/, `${label} load`);
    for (const [cell, what] of [
      [gSeconds, "gitleaks seconds"],
      [gCpu, "gitleaks CPU"],
      [eSeconds, "every policy seconds"],
      [eCpu, "every policy CPU"],
      [sSeconds, "secrets only seconds"],
      [sCpu, "secrets only CPU"],
    ])
      positive(cell, `${label} ${what}`);
    assert.deepEqual([eFound, sFound], ["3", "3"], `${label}: both offline scans find the three keys`);
  }
  for (const name of ["every policy", "secrets only"]) {
    ratio(report, `median ${name} offline / gitleaks, wall`);
    ratio(report, `median ${name} offline / gitleaks, per CPU-second`);
  }
});

test("pnpm bench:neighbour prints B's idle and loaded latency, the ratio and A's answers", () => {
  const report = bench("bench:neighbour");
  const [idle, loaded, ratioCell, b5xx, requests] = row(report, "1 ");
  for (const [pair, what] of [
    [idle, "idle"],
    [loaded, "loaded"],
  ]) {
    const [p50, p99] = pair.split(" / ");
    positive(p50, `B ${what} p50`);
    positive(p99, `B ${what} p99`);
  }
  assert.match(ratioCell, /^\d+\.\d\dx \(target <= 2x: (met|NOT met)\)$/);
  assert.match(b5xx, /^\d+/);
  positive(requests, "B requests under attack");
  assert.match(report, /1 scan thread\(s\): A's answers by request and status: .*(pathological|large) \d{3}: \d+/);
});

test("docs/performance.md's bench:offline command: the single file built, then timed beside the workspace CLI and gitleaks (--staged, the hook's command, and --base HEAD)", () => {
  // The command as the page gives it (its sh block that names VERDICT_BENCH_CLI), run by bash at
  // the repository root: `node scripts/build-sea.mjs` prints the executable's path, and
  // bench:offline adds that executable as a third side of the same rounds.
  const page = readFileSync(join(ROOT, "docs/performance.md"), "utf8");
  const block = [...page.matchAll(/```sh\n([\s\S]*?)```/g)]
    .map((m) => m[1])
    .find((b) => b.includes("VERDICT_BENCH_CLI"));
  assert.ok(block, "docs/performance.md has no sh block with VERDICT_BENCH_CLI");
  const result = spawnSync("bash", ["-euo", "pipefail", "-c", block], {
    cwd: ROOT,
    encoding: "utf8",
    env: { ...process.env, VERDICT_BENCH_QUICK: "1" },
    timeout: 300_000,
  });
  assert.equal(result.error, undefined, String(result.error));
  assert.equal(result.status, 0, `the docs' command exited ${result.status}:\n${result.stdout}\n${result.stderr}`);
  const report = result.stdout;
  for (const who of ["verdict", "VERDICT_BENCH_CLI"]) {
    assert.match(report, new RegExp(`^${who} evaluate --offline --staged +[1-9]\\d* ms {3}CPU \\d+ ms$`, "m"));
    assert.match(report, new RegExp(`^${who} evaluate --offline --base HEAD +[1-9]\\d* ms {3}CPU \\d+ ms$`, "m"));
    assert.match(
      report,
      new RegExp(`^${who} --staged / gitleaks: \\d+\\.\\d\\dx {3}target <= 2x {3}(met|MISSED)$`, "m"),
    );
    assert.match(report, new RegExp(`^${who} --base HEAD / gitleaks: \\d+\\.\\d\\dx {3}\\(whole files`, "m"));
  }
  assert.match(report, /^gitleaks git --pre-commit --staged +[1-9]\d* ms {3}CPU \d+ ms$/m);
});

test("pnpm bench:pr --pushes 2 times push to Verdict's status on a Gitea pull request beside verdict evaluate", () => {
  // Gitea (the cached build of scripts/install-gitea.sh) and the all-in-one, connected as the
  // Gitea page says; the second push leaks a key, so both sides fail it and pass the first.
  // Two servers and git: up to 160 s at a load of 30 on the 2-core machine.
  const report = bench("bench:pr", ["--pushes", "2"], {}, 400_000);
  assert.match(report, /^ {2}changes {4}2 pushes to 1 pull request\(s\), .* 1 leaking a key/m);
  for (const label of [
    "pull request status (Gitea)",
    "git push (until it returns)",
    "Gitea: pushed -> delivery at Verdict",
    "Verdict: delivery -> status visible",
    "verdict evaluate --base main",
  ]) {
    const [p50, p95, max] = row(report, label);
    positive(p50, `${label} p50`);
    positive(p95, `${label} p95`);
    positive(max, `${label} max`);
  }
  assert.equal(row(report, "pull request status (Gitea)")[3], "1 of 2");
  assert.equal(row(report, "verdict evaluate --base main")[3], "1 of 2");
  ratio(report, "pull request / CLI (p95)");
  assert.match(report, /^ {2}pull request p95 +[\d,]+ ms {3}target < 5,000 ms {3}(met|MISSED)$/m);
  assert.doesNotMatch(report, /WARNING/);
});
