// Speed on the real-code corpus, the targets of issue 12:
//   engine    compileEngine() with the full built-in library, one thread, every file as a Buffer
//   ripgrep   `rg -j1` with the same patterns (in ripgrep's dialect, as bench:engine does) over the
//             corpus directory: the engine should be at least as fast (>= 1.0x)
//   gitleaks  `gitleaks dir` over the corpus directory (its own threads), wall time
//   API       Verdict all-in-one started here, POST /v1/evaluations of the corpus in batches (at
//             most 199 files and 3.5 MB a request, below the size that makes an evaluation
//             asynchronous; files the API accepts: text, <= 1 MiB) from as many concurrent clients
//             as `verdict evaluate` keeps requests in flight by default (--concurrency, 4), wall
//             time: at least 10x gitleaks' throughput
// Engine and ripgrep: one warm-up run and one timed run each (the corpus is 100 MB on a shared
// machine); gitleaks: one run after the others have warmed the page cache; the API, as the
// engine: one warm-up pass of every request (the scan thread's RE2 builds its DFA states and V8
// compiles the request path as in a server that has been running) and one timed pass.
// The engine's structural rules are reported by language (issue 28): the files they parsed in the
// timed run, and the thread's CPU time parsing them and matching the rules, as MB per second.
// Beside the wall times, the CPU seconds each side spent (this process for the engine, gitleaks'
// process, the Verdict instance's from /proc): on a machine shared with other work, MB per
// CPU-second compares the tools whatever share of the cores each run happened to get.
import { Buffer } from "node:buffer";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { Agent } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import process from "node:process";
import { readFileSync } from "node:fs";
import { createBenchOrganization, evaluate, processCpuSeconds, startInstance } from "../api-client.mjs";
import {
  compileEngine,
  importBuilt,
  fmtInt,
  fmtMB,
  fmtRate,
  FULL_BUILTIN_SETTINGS,
  patternCount,
  regexSources,
  print,
  printTable,
  ratioLine,
  resolveBuiltins,
  timed,
  warmMedian,
} from "../common.mjs";
import { materialize, ripgrepAccepts, ripgrepVersion, runRipgrep, toRipgrep } from "../ripgrep.mjs";
import { note, run } from "./cache.mjs";
import { GITLEAKS_VERSION, gitleaksBinary } from "./gitleaks-samples.mjs";
import { corpusFiles } from "./realcode.mjs";

const TARGET_ENGINE_VS_RIPGREP = 1.0;
const TARGET_API_VS_GITLEAKS = 10;
const RG_SAMPLE_BYTES = 1e6;
// Below all-in-one's asynchronous thresholds (200 files, 4 MiB): each response carries its result.
const API_MAX_FILES = 199;
const API_MAX_FILE_BYTES = 1_048_576;
const API_BATCH_BYTES = 3.5e6;
// What a user's `verdict evaluate` of a large change sends at once (its --concurrency default).
const { DEFAULT_CONCURRENCY: API_CONCURRENCY } = await importBuilt("libs/cli/dist/commands/evaluate.js");

/** The engine's structural cost so far, by language (a copy: the engine adds to its own). */
const structuralCosts = (engine) => new Map([...engine.structuralCost()].map(([l, c]) => [l, { ...c }]));

/** CPU seconds of this process's finished children (cutime + cstime in /proc). */
function childrenCpuSeconds() {
  const fields = readFileSync("/proc/self/stat", "utf8").split(") ")[1].split(" ");
  return (Number(fields[13]) + Number(fields[14])) / 100;
}

/** CPU seconds of this process so far. */
function ownCpuSeconds() {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
}

/** The corpus files the API accepts (text, at most 1 MiB), as request bodies of bounded size. */
export function apiBatches(files) {
  const accepted = files.filter(
    (f) => f.content.length <= API_MAX_FILE_BYTES && !f.content.subarray(0, 8000).includes(0),
  );
  const batches = [];
  let current = [];
  let size = 0;
  for (const f of accepted) {
    if (current.length && (current.length >= API_MAX_FILES || size + f.content.length > API_BATCH_BYTES)) {
      batches.push(current);
      current = [];
      size = 0;
    }
    current.push(f);
    size += f.content.length;
  }
  if (current.length) batches.push(current);
  return batches.map((batch, i) => ({
    bytes: batch.reduce((n, f) => n + f.content.length, 0),
    body: Buffer.from(
      JSON.stringify({
        repository: "bench/detection",
        ref: `corpus-${i}`,
        files: batch.map((f) => ({ path: f.path, status: "modified", content: f.content.toString("utf8") })),
      }),
      "utf8",
    ),
  }));
}

async function apiRun(batches) {
  const instance = await startInstance();
  try {
    const key = await createBenchOrganization(instance.url, instance.operatorKey);
    const agent = new Agent({ keepAlive: true, maxSockets: API_CONCURRENCY });
    try {
      let next = 0;
      let findings = 0;
      const client = async () => {
        while (next < batches.length) {
          const batch = batches[next++];
          const answer = await evaluate(agent, instance.url, key, batch.body);
          findings += JSON.parse(answer).summary.total_violations;
        }
      };
      // Warm-up pass: the organization's engine is compiled on its first evaluation, and the
      // first pass over the corpus builds the engine's DFA states, as the engine's warm-up run does.
      await Promise.all(Array.from({ length: API_CONCURRENCY }, client));
      next = 0;
      findings = 0;
      const cpuBefore = processCpuSeconds(instance.pid);
      const start = performance.now();
      await Promise.all(Array.from({ length: API_CONCURRENCY }, client));
      const seconds = (performance.now() - start) / 1e3;
      const cpuAfter = processCpuSeconds(instance.pid);
      return {
        seconds,
        cpu: cpuBefore === undefined || cpuAfter === undefined ? undefined : cpuAfter - cpuBefore,
        findings,
      };
    } finally {
      agent.destroy();
    }
  } finally {
    await instance.stop();
  }
}

export async function runSpeed() {
  const { root, files, bytes } = corpusFiles();
  const policies = resolveBuiltins(FULL_BUILTIN_SETTINGS);
  const patterns = regexSources(policies);

  note("speed: engine");
  const engine = compileEngine(policies);
  const engineScan = () =>
    files.reduce((n, f) => n + engine.scan(f.path, f.content, { allowSuppression: true }).matched, 0);
  engineScan();
  const costBefore = structuralCosts(engine);
  const engineCpuBefore = ownCpuSeconds();
  const engineRun = timed(engineScan);
  const engineCpu = ownCpuSeconds() - engineCpuBefore;
  const costAfter = structuralCosts(engine);
  const structural = [...costAfter].map(([language, after]) => {
    const before = costBefore.get(language) ?? { files: 0, bytes: 0, parseSeconds: 0, matchSeconds: 0 };
    return {
      language,
      files: after.files - before.files,
      bytes: after.bytes - before.bytes,
      parseSeconds: after.parseSeconds - before.parseSeconds,
      matchSeconds: after.matchSeconds - before.matchSeconds,
    };
  });

  // ripgrep with the library's few hundred patterns runs far slower than the engine (its lazy DFA
  // gives up and it falls back to slower engines), so it reads a sample of the corpus, the first
  // files up to RG_SAMPLE_BYTES, once; the engine is timed on the same sample for the ratio.
  let rg;
  const version = ripgrepVersion();
  if (version) {
    note("speed: ripgrep -j1 (a sample of the corpus)");
    const kept = patterns
      .map(toRipgrep)
      .filter(ripgrepAccepts)
      .map((p) => `(?:${p})`);
    const sample = [];
    let sampleBytes = 0;
    for (const f of files) {
      if (sampleBytes >= RG_SAMPLE_BYTES) break;
      sample.push(f);
      sampleBytes += f.content.length;
    }
    const work = mkdtempSync(join(tmpdir(), "verdict-detection-rg-"));
    try {
      const patternsFile = join(work, "patterns.txt");
      writeFileSync(patternsFile, `${kept.join("\n")}\n`);
      const dir = materialize(sample.map((f) => ({ path: f.path, content: f.content })));
      try {
        const rgRun = timed(() => runRipgrep(patternsFile, dir, false));
        const engineOnSample = warmMedian(
          () => sample.reduce((n, f) => n + engine.scan(f.path, f.content, { allowSuppression: true }).matched, 0),
          1,
        );
        rg = {
          seconds: rgRun.seconds,
          engineSeconds: engineOnSample.seconds,
          bytes: sampleBytes,
          files: sample.length,
          version,
          ran: kept.length,
        };
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  }

  note("speed: gitleaks dir (minutes)");
  const bin = gitleaksBinary();
  const report = join(mkdtempSync(join(tmpdir(), "verdict-detection-gl-")), "report.json");
  const gitleaksCpuBefore = childrenCpuSeconds();
  const gitleaks = timed(() =>
    run(bin, [
      "dir",
      root,
      "--no-banner",
      "--report-format",
      "json",
      "--report-path",
      report,
      "--exit-code",
      "0",
      "--log-level",
      "error",
    ]),
  );
  const gitleaksCpu = childrenCpuSeconds() - gitleaksCpuBefore;
  rmSync(join(report, ".."), { recursive: true, force: true });

  note("speed: API end to end");
  const batches = apiBatches(files);
  const apiBytes = batches.reduce((n, b) => n + b.bytes, 0);
  const api = await apiRun(batches);

  print("Speed on the real-code corpus");
  print(
    `  ${fmtInt(files.length)} files, ${fmtMB(bytes)}; ${patternCount(policies)} patterns in ${policies.length} built-in policies; MB = 10^6 bytes`,
  );
  print(
    `  engine and API: 1 warm-up + 1 timed run (API: ${API_CONCURRENCY} requests at a time, verdict evaluate's default --concurrency); ripgrep and gitleaks: one run each (wall time, and CPU seconds where known)`,
  );
  print();
  printTable([
    ["", "MB/s", "seconds", "MB", "CPU s", "MB / CPU s"],
    [
      "Verdict engine, 1 thread",
      fmtRate(bytes / engineRun.seconds),
      engineRun.seconds.toFixed(2),
      (bytes / 1e6).toFixed(1),
      engineCpu.toFixed(2),
      fmtRate(bytes / engineCpu),
    ],
    ...(rg
      ? [
          [
            `ripgrep -j1 (${rg.ran} of ${patterns.length} patterns), ${fmtInt(rg.files)}-file sample`,
            fmtRate(rg.bytes / rg.seconds),
            rg.seconds.toFixed(2),
            (rg.bytes / 1e6).toFixed(1),
          ],
          [
            "Verdict engine on the same sample",
            fmtRate(rg.bytes / rg.engineSeconds),
            rg.engineSeconds.toFixed(2),
            (rg.bytes / 1e6).toFixed(1),
          ],
        ]
      : [["ripgrep -j1", "n/a", "rg not on PATH", ""]]),
    [
      `gitleaks ${GITLEAKS_VERSION} dir`,
      fmtRate(bytes / gitleaks.seconds),
      gitleaks.seconds.toFixed(2),
      (bytes / 1e6).toFixed(1),
      gitleaksCpu.toFixed(2),
      fmtRate(bytes / gitleaksCpu),
    ],
    [
      `Verdict API, ${batches.length} requests, ${API_CONCURRENCY} clients`,
      fmtRate(apiBytes / api.seconds),
      api.seconds.toFixed(2),
      (apiBytes / 1e6).toFixed(1),
      api.cpu === undefined ? "n/a" : api.cpu.toFixed(2),
      api.cpu === undefined ? "n/a" : fmtRate(apiBytes / api.cpu),
    ],
  ]);
  print();
  print(
    "  The engine's structural (syntax-aware) rules in its timed run, by language: the files parsed (those a rule's",
  );
  print(
    "  gates let through), tree-sitter parsing and matching the rules on the tree (flow included), thread CPU time",
  );
  printTable([
    ["language", "files parsed", "MB", "parse CPU s", "parse MB/s", "match CPU s", "match MB/s"],
    ...structural
      .sort((a, b) => b.parseSeconds + b.matchSeconds - (a.parseSeconds + a.matchSeconds))
      .map((c) => [
        c.language,
        fmtInt(c.files),
        (c.bytes / 1e6).toFixed(2),
        c.parseSeconds.toFixed(2),
        fmtRate(c.bytes / c.parseSeconds),
        c.matchSeconds.toFixed(2),
        fmtRate(c.bytes / c.matchSeconds),
      ]),
  ]);
  print();
  print(
    `  engine / ripgrep -j1   ${rg ? ratioLine(rg.seconds / rg.engineSeconds, TARGET_ENGINE_VS_RIPGREP) : "n/a (rg not on PATH)"} (same sample)`,
  );
  print(`  engine / gitleaks      ${(gitleaks.seconds / engineRun.seconds).toFixed(2)}x`);
  print(
    `  API / gitleaks         ${ratioLine(apiBytes / api.seconds / (bytes / gitleaks.seconds), TARGET_API_VS_GITLEAKS)}`,
  );
  if (api.cpu !== undefined)
    print(
      `  API / gitleaks per CPU-second   ${(apiBytes / api.cpu / (bytes / gitleaksCpu)).toFixed(2)}x (Verdict's CPU from /proc, all its threads; gitleaks' from its rusage)`,
    );
  print(
    `  (the API is sent the ${fmtInt(batches.reduce((n, b) => n + JSON.parse(b.body).files.length, 0))} text files of at most 1 MiB; throughputs compare bytes per second)`,
  );
  print();
}
