// node bench/offline.mjs
//
// `verdict evaluate --offline --staged` (the pre-commit hook's command: the lines the commit adds,
// from git's index) against `gitleaks git --pre-commit --staged` (what `gitleaks protect --staged`
// became: the same lines) on a typical commit, as a pre-commit hook runs them: CLI start to exit,
// wall time; and `verdict evaluate --offline --base HEAD` (the work tree's changed files, whole)
// beside them. The commit: 6 source files of this repository changed (about 40 lines added to
// each, one of them a key) in a git repository made here, staged, with the working tree equal to
// the index. gitleaks is the binary bench:detection builds (`go install`, cached).
//
// One warm-up run of each, then the median of RUNS runs of each, alternating: wall time and CPU
// time (user + system of the process and its children, git's included). Target: the hook's
// command at most 2x gitleaks' time. VERDICT_BENCH_CLI=PATH adds that `verdict` executable (the
// single-file build of scripts/build-sea.mjs, what the one-line install puts on PATH) running the
// same two commands, in the same rounds.
import { execFileSync, spawnSync } from "node:child_process";
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { performance } from "node:perf_hooks";
import process from "node:process";
import { childrenCpuSeconds, median, print, QUICK, ROOT } from "./common.mjs";
import { gitleaksBinary } from "./detection/gitleaks-samples.mjs";

const RUNS = QUICK ? 3 : 15;
const TARGET = 2;
const FILES = [
  "libs/cli/src/batches.ts",
  "libs/cli/src/files.ts",
  "libs/cli/src/git.ts",
  "libs/cli/src/history.ts",
  "libs/cli/src/baseline.ts",
  "services/evaluation/src/domain/snippet.ts",
];
const CLI = join(ROOT, "libs/cli/dist/bin.js");

function git(cwd, ...args) {
  execFileSync("git", ["-c", "user.name=Ada", "-c", "user.email=ada@example.com", ...args], { cwd, stdio: "ignore" });
}

/** A repository whose index holds a typical change: FILES edited, one key among the added lines. */
function typicalCommit() {
  const repo = mkdtempSync(join(tmpdir(), "verdict-bench-offline-"));
  git(repo, "init", "-q", "-b", "main");
  for (const f of FILES) copyFileSync(join(ROOT, f), join(repo, basename(f)));
  git(repo, "add", ".");
  git(repo, "commit", "-q", "-m", "before");
  FILES.forEach((f, i) => {
    const added = Array.from({ length: 40 }, (_, j) => `export const setting${i}_${j} = "value ${j}";`);
    if (i === 0) added.push('const accessKey = "AKIAZ7VQ3X4M2N8P5R6T";');
    writeFileSync(join(repo, basename(f)), readFileSync(join(repo, basename(f)), "utf8") + added.join("\n") + "\n");
  });
  git(repo, "add", ".");
  return repo;
}

/** Wall and CPU milliseconds from spawn to exit, and the exit code. */
function run(cmd, args, cwd, env) {
  const cpuBefore = childrenCpuSeconds();
  const start = performance.now();
  const r = spawnSync(cmd, args, { cwd, env, stdio: ["ignore", "ignore", "pipe"] });
  const ms = performance.now() - start;
  return { ms, cpuMs: (childrenCpuSeconds() - cpuBefore) * 1e3, code: r.status, stderr: r.stderr.toString() };
}

const repo = typicalCommit();
const home = mkdtempSync(join(tmpdir(), "verdict-bench-home-"));
// No pulled policies in this HOME: the built-in library, and no network call either way.
const env = { PATH: process.env.PATH, HOME: home, XDG_CACHE_HOME: join(home, ".cache") };
const gitleaks = gitleaksBinary();
const COMMANDS = {
  staged: ["evaluate", "--offline", "--staged"],
  base: ["evaluate", "--offline", "--base", "HEAD"],
};
const sea = process.env.VERDICT_BENCH_CLI;
const sides = {};
for (const [who, cmd, args] of [["verdict", process.execPath, [CLI]], ...(sea ? [["VERDICT_BENCH_CLI", sea, []]] : [])])
  for (const [what, command] of Object.entries(COMMANDS))
    sides[`${who} ${what}`] = {
      label: `${who} ${command.join(" ")}`,
      ratio: `${who} ${what === "staged" ? "--staged" : "--base HEAD"}`,
      hook: what === "staged",
      run: () => run(cmd, [...args, ...command], repo, env),
    };
sides.gitleaks = {
  label: "gitleaks git --pre-commit --staged",
  run: () => run(gitleaks, ["git", "--pre-commit", "--staged", "--no-banner", "--log-level", "error"], repo, env),
};
for (const [name, side] of Object.entries(sides)) {
  const r = side.run();
  // Both find the key and fail the commit: the comparison is of two hooks doing their job.
  if (r.code !== 1) throw new Error(`${name} exited ${r.code} on the typical commit (1 expected): ${r.stderr}`);
}
const times = Object.fromEntries(Object.keys(sides).map((name) => [name, { ms: [], cpuMs: [] }]));
for (let i = 0; i < RUNS; i++)
  for (const [name, side] of Object.entries(sides)) {
    const r = side.run();
    times[name].ms.push(r.ms);
    times[name].cpuMs.push(r.cpuMs);
  }
const load = readFileSync("/proc/loadavg", "utf8").split(" ")[0];
print(
  `typical commit: ${FILES.length} files, ${FILES.length * 40 + 1} added lines, one key (median of ${RUNS}, load ${load})`,
);
const width = Math.max(...Object.values(sides).map((s) => s.label.length)) + 3;
for (const [name, side] of Object.entries(sides))
  print(
    `${side.label.padEnd(width)}${median(times[name].ms).toFixed(0)} ms   CPU ${median(times[name].cpuMs).toFixed(0)} ms`,
  );
const g = median(times.gitleaks.ms);
for (const [name, side] of Object.entries(sides).filter(([n]) => n !== "gitleaks")) {
  const ratio = median(times[name].ms) / g;
  print(
    side.hook
      ? `${side.ratio} / gitleaks: ${ratio.toFixed(2)}x   target <= ${TARGET}x   ${ratio <= TARGET ? "met" : "MISSED"}`
      : `${side.ratio} / gitleaks: ${ratio.toFixed(2)}x   (whole files of the work tree: not the hook's command)`,
  );
}
rmSync(repo, { recursive: true, force: true });
rmSync(home, { recursive: true, force: true });
