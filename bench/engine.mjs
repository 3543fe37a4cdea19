// pnpm bench:engine [DIR]
//
// Throughput of the evaluation engine with the full built-in policy library, against two
// references, each reading exactly the same bytes:
//   engine   compileEngine() once, then engine.scan() of every file as a Buffer: one RE2.Set pass
//            per file, then only the rules the set reports, with the engine's gates and findings.
//            Beside it, side by side in turn: the library without its provider families, and the
//            engine searching each candidate rule's whole file (`wholeFiles`, not only the places
//            its keywords allow: keywordReach.ts), with the same findings.
//   naive    what the engine replaces: every pattern its own RE2 ("gmu"), every file decoded to a
//            string, every pattern's matches enumerated with exec().
//   ripgrep  `rg -j1` (one thread, as the engine runs on one) with the same patterns, as the
//            bar for a mature multi-pattern regex scanner; skipped when rg is not on PATH.
// The corpus is DIR (its regular files, without .git and node_modules, up to ~200 MB) or a
// generated, deterministic ~50 MB of source code. The engine reads all of it; the naive loop and
// ripgrep read a sample, the corpus's first files up to 2 MB (with the library's few hundred
// patterns ripgrep's lazy DFA gives up and it crawls at about 0.1 MB/s, the naive loop at under
// 1 MB/s), and the engine is timed on the same sample for the ratios. Each measurement is one
// warm-up run and the median of three (ripgrep: of one).
// VERDICT_BENCH_QUICK=1: 0.3 MB generated, one timed run, no ripgrep (whose compile of the few
// hundred patterns alone takes a minute of CPU): a smoke run.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";
import {
  compileEngine,
  fmtInt,
  fmtMB,
  fmtRate,
  FULL_BUILTIN_SETTINGS,
  patternCount,
  regexSources,
  peakRss,
  print,
  QUICK,
  printTable,
  median,
  ratioLine,
  RE2,
  resolveBuiltins,
  timed,
  warmMedian,
} from "./common.mjs";
import { generateCorpus } from "./corpus.mjs";
import { materialize, readTree, ripgrepAccepts, ripgrepVersion, runRipgrep, toRipgrep } from "./ripgrep.mjs";

const GENERATED_BYTES = QUICK ? 0.3e6 : 50e6;
const SAMPLE_BYTES = 2e6;
const RUNS = QUICK ? 1 : 3;
const DIR_LIMIT_BYTES = 200e6;
const TARGET_VS_NAIVE = 10;
const TARGET_VS_RIPGREP = 1.0;
// Provider families (issue 29) may cost at most 15% of the throughput of the library without them.
const TARGET_FAMILIES = 0.85;
const FAMILIES_POLICY = "provider-tokens";

// ---------- the three scanners ----------

function scanWithEngine(engine, files) {
  let findings = 0;
  let skipped = 0;
  for (const { path, content } of files) {
    const scan = engine.scan(path, content, { allowSuppression: true });
    findings += scan.matched;
    if (scan.skipped) skipped++;
  }
  return { findings, skipped };
}

function scanNaively(regexps, files) {
  let matches = 0;
  for (const { content } of files) {
    const text = content.toString("utf8");
    for (const re of regexps) {
      re.lastIndex = 0;
      for (let m = re.exec(text); m; m = re.exec(text)) {
        matches++;
        if (m[0].length === 0) re.lastIndex++;
      }
    }
  }
  return matches;
}

/**
 * warmMedian() of each function, their timed runs taken in turn (a, b, a, b…) after one warm-up
 * each, with the median CPU time of the runs too (the engine is single-threaded: CPU seconds hold
 * still on a loaded machine where wall time does not).
 */
function alternating(fns, runs) {
  const firsts = fns.map((fn) => timed(fn));
  const times = fns.map(() => []);
  const cpus = fns.map(() => []);
  for (let i = 0; i < runs; i++)
    fns.forEach((fn, j) => {
      const cpu = process.cpuUsage();
      times[j].push(timed(fn).seconds);
      const used = process.cpuUsage(cpu);
      cpus[j].push((used.user + used.system) / 1e6);
    });
  return fns.map((_, j) => ({
    seconds: median(times[j]),
    cpuSeconds: median(cpus[j]),
    firstSeconds: firsts[j].seconds,
    result: firsts[j].result,
  }));
}

// ---------- main ----------

const dirArg = process.argv[2];
const { files, truncated } = dirArg
  ? readTree(dirArg, DIR_LIMIT_BYTES)
  : { files: generateCorpus({ totalBytes: GENERATED_BYTES, seed: 1 }), truncated: false };
const bytes = files.reduce((n, f) => n + f.content.length, 0);
if (!bytes) {
  process.stderr.write(`No file content to scan${dirArg ? ` under ${dirArg}` : ""}.\n`);
  process.exit(1);
}

const policies = resolveBuiltins(FULL_BUILTIN_SETTINGS);
const patterns = regexSources(policies);
print("Verdict engine benchmark");
print(
  `  corpus     ${dirArg ? `${dirArg}${truncated ? ` (first ${fmtMB(DIR_LIMIT_BYTES)})` : ""}` : "generated (seed 1)"}: ${fmtInt(files.length)} files, ${fmtMB(bytes)} (${fmtInt(bytes)} bytes)`,
);
print(`  patterns   ${patternCount(policies)} in ${policies.length} built-in policies (detect_api_keys on)`);
print(
  `  timing     1 warm-up + median of ${RUNS} run${RUNS > 1 ? "s" : ""}; MB = 10^6 bytes${QUICK ? " (VERDICT_BENCH_QUICK: a smoke run)" : ""}\n`,
);

const engineCompile = timed(() => compileEngine(policies));
const engine = engineCompile.result;
// Side by side, in this process: the same library without the provider families' policy, its
// runs alternating with the whole library's so both see the same load on a shared machine.
const withoutFamilies = policies.filter((p) => p.id !== FAMILIES_POLICY);
const baseEngine = compileEngine(withoutFamilies);
const wholeEngine = compileEngine(policies, { wholeFiles: true });
const [engineRun, baseRun, wholeRun] = alternating(
  [
    () => scanWithEngine(engine, files),
    () => scanWithEngine(baseEngine, files),
    () => scanWithEngine(wholeEngine, files),
  ],
  RUNS,
);

const sample = [];
let sampleBytes = 0;
for (const f of files) {
  if (sampleBytes >= SAMPLE_BYTES) break;
  sample.push(f);
  sampleBytes += f.content.length;
}
const engineOnSample = warmMedian(() => scanWithEngine(engine, sample), RUNS);

const naiveCompile = timed(() => patterns.map((p) => new RE2(p, "gmu")));
const naiveRun = warmMedian(() => scanNaively(naiveCompile.result, sample), RUNS);

let rg;
const version = QUICK ? undefined : ripgrepVersion();
if (version) {
  const rewritten = patterns.map(toRipgrep);
  // Each pattern in a group of its own: ripgrep 13 lets an inline flag such as `(?i)` in one
  // pattern of a -f file apply to the patterns after it.
  const kept = rewritten.filter(ripgrepAccepts).map((p) => `(?:${p})`);
  const work = mkdtempSync(join(tmpdir(), "verdict-bench-rg-"));
  try {
    const patternsFile = join(work, "patterns.txt");
    writeFileSync(patternsFile, kept.join("\n") + "\n");
    // Writing the corpus is not timed; ripgrep then reads it from the page cache.
    const dir = materialize(sample);
    try {
      const run = warmMedian(() => runRipgrep(patternsFile, dir, true), 1);
      rg = {
        ...run,
        lines: run.result,
        version,
        ran: kept.length,
        rewritten: rewritten.filter((p, i) => p !== patterns[i]).length,
      };
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

const rate = (seconds) => bytes / seconds;
const sampleRate = (seconds) => sampleBytes / seconds;
const sampleNote = `${fmtInt(sample.length)}-file sample, ${fmtMB(sampleBytes)}`;
// The first (warm-up) run is shown too: RE2 builds its DFA states lazily, so a freshly compiled
// engine is slower on its first megabytes.
/** A row of an engine run: its label, throughput at `rateOf`, median and first-run seconds, findings. */
const engineRow = (label, run, rateOf, compileMs = "") => [
  label,
  fmtRate(rateOf(run.seconds)),
  run.seconds.toFixed(3),
  run.firstSeconds.toFixed(3),
  compileMs,
  `${fmtInt(run.result.findings)} findings`,
];
const rows = [
  ["", "MB/s", "median s", "1st run s", "compile ms", "findings"],
  ["all files", "", "", "", "", ""],
  engineRow("engine (one RE2.Set)", engineRun, rate, (engineCompile.seconds * 1e3).toFixed(0)),
  engineRow(`engine without ${FAMILIES_POLICY} (${patternCount(withoutFamilies)} patterns)`, baseRun, rate),
  engineRow("engine, whole files (wholeFiles)", wholeRun, rate),
  [sampleNote, "", "", "", "", ""],
  engineRow("engine (one RE2.Set)", engineOnSample, sampleRate),
  [
    `naive (${patterns.length} RE2, exec loop)`,
    fmtRate(sampleRate(naiveRun.seconds)),
    naiveRun.seconds.toFixed(3),
    naiveRun.firstSeconds.toFixed(3),
    (naiveCompile.seconds * 1e3).toFixed(0),
    `${fmtInt(naiveRun.result)} matches`,
  ],
  rg
    ? [
        "ripgrep -j1",
        fmtRate(sampleRate(rg.seconds)),
        rg.seconds.toFixed(3),
        rg.firstSeconds.toFixed(3),
        "",
        `${fmtInt(rg.lines)} matching lines`,
      ]
    : ["ripgrep -j1", "n/a", "", "", "", QUICK ? "skipped (VERDICT_BENCH_QUICK)" : "rg not on PATH"],
];
printTable(rows);
print();
print("  Findings differ by design: the naive loop counts every match of every pattern in every file; the engine");
print("  reports only matches past its gates (file paths, keywords, entropy, allowlists, placeholders, suppressions).");
if (engineRun.result.skipped)
  print(
    `  The engine skipped ${fmtInt(engineRun.result.skipped)} files (binary, minified or lock files); the others scanned every file.`,
  );
if (rg)
  print(
    `  ripgrep: ${rg.version}; ran ${rg.ran} of ${patterns.length} patterns (${rg.rewritten} rewritten, ${patterns.length - rg.ran} refused and dropped).`,
  );
print(
  `  with / without provider families   ${ratioLine(baseRun.seconds / engineRun.seconds, TARGET_FAMILIES)} (all files, same process, wall time)`,
);
print(
  `  the same, per CPU-second            ${ratioLine(baseRun.cpuSeconds / engineRun.cpuSeconds, TARGET_FAMILIES)} (${baseRun.cpuSeconds.toFixed(3)} / ${engineRun.cpuSeconds.toFixed(3)} CPU-s)`,
);
print(
  `  keyword windows / whole files       ${(wholeRun.cpuSeconds / engineRun.cpuSeconds).toFixed(2)}x per CPU-second (${wholeRun.cpuSeconds.toFixed(3)} / ${engineRun.cpuSeconds.toFixed(3)} CPU-s), ${wholeRun.result.findings === engineRun.result.findings ? "the same" : "NOT the same"} findings`,
);
print(`  engine / naive     ${ratioLine(naiveRun.seconds / engineOnSample.seconds, TARGET_VS_NAIVE)} (same sample)`);
print(
  `  engine / ripgrep   ${rg ? `${ratioLine(rg.seconds / engineOnSample.seconds, TARGET_VS_RIPGREP)} (same sample)` : `n/a (${QUICK ? "skipped in a smoke run" : "rg not on PATH"})`}`,
);
print(`  peak RSS           ${peakRss()}`);
