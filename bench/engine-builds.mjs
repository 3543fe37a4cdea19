// pnpm bench:engine-builds BASELINE [ROUNDS]
//
// The secrets engine of two builds side by side: BASELINE (the root of another checkout, built:
// `git worktree add ../base <commit> && (cd ../base && pnpm install && pnpm run build)`) and this
// one. Each round runs each build's engine in a process of its own (its own node-re2, its own
// library), in turn, on the same corpus: the secrets policies of the full built-in library, one
// thread, one warm-up scan and one timed scan, CPU seconds of that process. Prints each round, the
// medians and their ratio (issue 29's budget: the engine with its provider families within 15% of
// the engine before them, 0.85x).
// The corpus is the detection benchmark's real-code corpus (bench/detection/real-corpus.mjs: npm
// and PyPI packages fetched once and cached); VERDICT_BENCH_QUICK=1 scans a generated 0.3 MB
// instead, one round: a smoke run whose figures mean nothing.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import process from "node:process";
import { fileURLToPath, URL } from "node:url";
import { median, print, QUICK } from "./common.mjs";

const TARGET = 0.85;
const here = fileURLToPath(new URL("..", import.meta.url));

if (process.argv[2] === "--child") {
  // One build's engine (VERDICT_ROOT: common.mjs imports that build), one JSON line.
  const { compileEngine, resolveBuiltins, FULL_BUILTIN_SETTINGS, patternCount } = await import("./common.mjs");
  const { generateCorpus } = await import("./corpus.mjs");
  const files = QUICK
    ? generateCorpus({ totalBytes: 0.3e6, seed: 1 })
    : (await import("./detection/realcode.mjs")).corpusFiles().files;
  const bytes = files.reduce((n, f) => n + f.content.length, 0);
  const policies = resolveBuiltins(FULL_BUILTIN_SETTINGS).filter((p) => p.category === "secrets");
  const engine = compileEngine(policies);
  const scan = () => files.reduce((n, f) => n + engine.scan(f.path, f.content, { allowSuppression: true }).matched, 0);
  scan();
  const before = process.cpuUsage();
  const findings = scan();
  const used = process.cpuUsage(before);
  const cpu = (used.user + used.system) / 1e6;
  process.stdout.write(`${JSON.stringify({ rules: patternCount(policies), mb: bytes / 1e6, cpu, findings })}\n`);
  process.exit(0);
}

const baseline = process.argv[2] && resolve(process.argv[2]);
if (!baseline || !existsSync(`${baseline}/services/evaluation/dist/domain/engine.js`)) {
  process.stderr.write(
    "usage: pnpm bench:engine-builds BASELINE [ROUNDS]\n  BASELINE: the root of another checkout of Verdict, built (services/evaluation/dist/domain/engine.js)\n",
  );
  process.exit(2);
}
const rounds = QUICK ? 1 : Math.max(1, Number(process.argv[3] ?? 5));
const builds = [
  { name: "baseline", root: baseline },
  { name: "this build", root: resolve(here) },
];

function run(root) {
  // The child script of this checkout, the engine and library of `root`.
  const child = spawnSync(process.execPath, [fileURLToPath(import.meta.url), "--child"], {
    env: { ...process.env, VERDICT_ROOT: root },
    encoding: "utf8",
    maxBuffer: 1 << 20,
  });
  if (child.status !== 0) {
    process.stderr.write(child.stderr);
    throw new Error(`the engine of ${root} failed (exit ${child.status})`);
  }
  return JSON.parse(child.stdout.trim().split("\n").pop());
}

print("Secrets engine, two builds side by side (each round: each build in a process of its own, in turn)");
const results = builds.map(() => []);
for (let r = 0; r < rounds; r++)
  builds.forEach((b, i) => {
    const res = run(b.root);
    results[i].push(res);
    print(
      `  round ${r + 1}  ${b.name.padEnd(10)}  ${String(res.rules).padStart(5)} rules  ${(res.mb / res.cpu).toFixed(1).padStart(6)} MB per CPU-second  (${res.cpu.toFixed(3)} CPU-s, ${res.findings} findings)`,
    );
  });
const rates = results.map((rs) => median(rs.map((x) => x.mb / x.cpu)));
print();
builds.forEach((b, i) =>
  print(
    `  ${b.name.padEnd(10)}  ${b.root}: median ${rates[i].toFixed(1)} MB per CPU-second, ${results[i][0].rules} rules`,
  ),
);
const ratio = rates[1] / rates[0];
const same = results[0][0].findings === results[1][0].findings;
print(
  `  this build / baseline   ${ratio.toFixed(2)}x   target >= ${TARGET}x   ${ratio >= TARGET ? "met" : "MISSED"} (per CPU-second, medians of ${rounds})`,
);
print(`  findings: ${results[0][0].findings} and ${results[1][0].findings}${same ? " (the same number)" : ""}`);
