// pnpm bench:cli [MB]
//
// `verdict evaluate` on a large tree against the API path on the same files. The tree is the
// deterministic generated corpus of bench:engine (MB of content, 50 by default: about 4,500
// files of mixed languages), written to a temporary directory. Both sides run against one
// Verdict all-in-one that this script starts (free port, temporary data directory, an
// organization whose rate limits the load cannot reach), with the organization's policies.
//
// - CLI: the real command, `node libs/cli/dist/bin.js evaluate . --format json`, as a user runs
//   it: process start, listing and reading the files, encoding, batching, concurrent requests,
//   merging. Timed from spawn to exit.
// - API: the same files in the same batches the CLI makes (its batching module), bodies encoded
//   once before the clock starts, sent over kept-alive node:http connections with the same
//   concurrency (bench:api's load generator): what the API takes when the client costs nothing.
//
// One warm-up pass of each (the organization's engine, RE2's lazily built DFA, the page cache),
// then the median of 3 timed runs of each, alternating. Target: CLI >= 0.8x the API's MB/s.
import { Buffer } from "node:buffer";
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { Agent } from "node:http";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { performance } from "node:perf_hooks";
import process from "node:process";
import { createBenchOrganization, evaluate, processCpuSeconds, startInstance } from "./api-client.mjs";
import { fmtInt, fmtMB, fmtRate, importBuilt, median, print, printTable, QUICK, ratioLine, ROOT } from "./common.mjs";
import { generateCorpus } from "./corpus.mjs";

// VERDICT_BENCH_QUICK=1: 1 MB by default, one timed run of each side (a smoke run).
const DEFAULT_MB = QUICK ? 1 : 50;
const RUNS = QUICK ? 1 : 3;
const TARGET = 0.8;
const SEED = 7;

/** CPU seconds of this process's finished children (cutime + cstime in /proc): the CLI runs' own. */
function childrenCpuSeconds() {
  const fields = readFileSync("/proc/self/stat", "utf8").split(") ")[1].split(" ");
  return (Number(fields[13]) + Number(fields[14])) / 100;
}

/** Runs the CLI in `dir`; resolves with its wall time, its JSON result and its exit code. */
function runCli(dir, url, key, home, concurrency) {
  const args = [
    `${ROOT}libs/cli/dist/bin.js`,
    "evaluate",
    ".",
    "--format",
    "json",
    "--repository",
    "bench/cli",
    "--ref",
    "bench",
    "--concurrency",
    String(concurrency),
  ];
  const env = {
    PATH: process.env.PATH ?? "",
    HOME: home,
    XDG_CONFIG_HOME: join(home, ".config"),
    VERDICT_URL: url,
    VERDICT_API_KEY: key,
  };
  return new Promise((resolve, reject) => {
    const start = performance.now();
    const cpuBefore = childrenCpuSeconds();
    const child = spawn(process.execPath, args, { cwd: dir, env, stdio: ["ignore", "pipe", "pipe"] });
    const out = [];
    let err = "";
    child.stdout.on("data", (c) => out.push(c));
    child.stderr.on("data", (c) => (err += c));
    child.once("error", reject);
    child.once("close", (code) => {
      const seconds = (performance.now() - start) / 1e3;
      // 1: the evaluation failed (the corpus has planted secrets); anything else is an error.
      if (code !== 0 && code !== 1) return reject(new Error(`verdict evaluate exited ${code}:\n${err}`));
      resolve({
        seconds,
        cpu: childrenCpuSeconds() - cpuBefore,
        result: JSON.parse(Buffer.concat(out).toString("utf8")),
        stderr: err,
      });
    });
  });
}

/** Sends every body, `concurrency` at a time; resolves with the wall time and the findings. */
async function runApi(agent, url, key, bodies, concurrency) {
  let next = 0;
  let findings = 0;
  let files = 0;
  const cpuBefore = process.cpuUsage();
  const start = performance.now();
  const client = async () => {
    while (next < bodies.length) {
      const e = JSON.parse(await evaluate(agent, url, key, bodies[next++]));
      findings += e.summary.total_violations;
      files += e.summary.total_files;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, client));
  const cpu = process.cpuUsage(cpuBefore);
  return { seconds: (performance.now() - start) / 1e3, cpu: (cpu.user + cpu.system) / 1e6, findings, files };
}

async function main() {
  const mb = Number(process.argv[2] ?? DEFAULT_MB);
  if (!(mb > 0)) throw new Error("usage: pnpm bench:cli [MB of generated files, default 50]");
  const { batchBody, encodeFile, SYNC_BATCH, takeBatch } = await importBuilt("libs/cli/dist/batches.js");
  const { DEFAULT_CONCURRENCY } = await importBuilt("libs/cli/dist/commands/evaluate.js");
  const concurrency = Number(process.env.VERDICT_BENCH_CONCURRENCY ?? DEFAULT_CONCURRENCY);

  const dir = mkdtempSync(join(tmpdir(), "verdict-bench-tree-"));
  const home = mkdtempSync(join(tmpdir(), "verdict-bench-home-"));
  const instance = await startInstance();
  try {
    const key = await createBenchOrganization(instance.url, instance.operatorKey);
    const corpus = generateCorpus({ totalBytes: mb * 1e6, seed: SEED });
    for (const f of corpus) {
      mkdirSync(dirname(join(dir, f.path)), { recursive: true });
      writeFileSync(join(dir, f.path), f.content);
    }
    const bytes = corpus.reduce((n, f) => n + f.content.length, 0);

    // The API side: the CLI's batches of the same files, encoded before the clock starts.
    const sized = corpus.map((f) => ({ file: f, bytes: f.content.length }));
    const read = ({ file }) => encodeFile({ path: file.path, content: file.content, status: "modified" });
    const bodies = [];
    for (let start = 0; start < sized.length;) {
      const { end, entries } = takeBatch(sized, start, SYNC_BATCH, read);
      bodies.push(batchBody({ repository: "bench/cli", ref: "bench" }, entries));
      start = end;
    }

    const agent = new Agent({ keepAlive: true, maxSockets: concurrency });
    const api = [];
    const cli = [];
    const cpu = { api: [], cli: [] };
    const timedInstance = async (fn, into) => {
      const before = processCpuSeconds(instance.pid);
      const r = await fn();
      into.push(processCpuSeconds(instance.pid) - before);
      return r;
    };
    try {
      await runApi(agent, instance.url, key, bodies, concurrency);
      await runCli(dir, instance.url, key, home, concurrency);
      for (let i = 0; i < RUNS; i++) {
        api.push(await timedInstance(() => runApi(agent, instance.url, key, bodies, concurrency), cpu.api));
        cli.push(await timedInstance(() => runCli(dir, instance.url, key, home, concurrency), cpu.cli));
      }
    } finally {
      agent.destroy();
    }

    const apiSeconds = median(api.map((r) => r.seconds));
    const cliSeconds = median(cli.map((r) => r.seconds));
    const cliResult = cli[0].result;
    print("Verdict CLI benchmark: verdict evaluate vs the API on the same files");
    print(`  target     ${instance.url} (all-in-one started by this script, dedicated organization)`);
    print(`  tree       ${fmtInt(corpus.length)} generated files, ${fmtMB(bytes)} (bench/corpus.mjs, seed ${SEED})`);
    print(
      `  batches    ${bodies.length} requests of at most ${SYNC_BATCH.files} files / ${fmtMB(SYNC_BATCH.bytes)}, ${concurrency} at a time (both sides)`,
    );
    print(
      `  timing     1 warm-up + median of ${RUNS} runs each, alternating; CLI from spawn to exit; MB = 10^6 bytes\n`,
    );
    printTable([
      ["", "MB/s", "seconds", "files", "findings", "Verdict CPU s", "client CPU s"],
      [
        "API (POST /v1/evaluations, bodies pre-encoded)",
        fmtRate(bytes / apiSeconds),
        apiSeconds.toFixed(2),
        fmtInt(api[0].files),
        fmtInt(api[0].findings),
        median(cpu.api).toFixed(2),
        median(api.map((r) => r.cpu)).toFixed(2),
      ],
      [
        `CLI (verdict evaluate, ${cliResult.evaluations.length} evaluations)`,
        fmtRate(bytes / cliSeconds),
        cliSeconds.toFixed(2),
        fmtInt(cliResult.summary.total_files),
        fmtInt(cliResult.summary.total_violations),
        median(cpu.cli).toFixed(2),
        median(cli.map((r) => r.cpu)).toFixed(2),
      ],
    ]);
    print();
    print(`  CLI / API   ${ratioLine(apiSeconds / cliSeconds, TARGET)}`);
    print(
      "  (client CPU: the CLI process, from start to exit; the API side's load generator, without encoding the bodies)",
    );
    if (cliResult.summary.total_files !== api[0].files || cliResult.summary.total_violations !== api[0].findings) {
      print("  WARNING: the CLI and the API did not see the same files and findings");
      process.exitCode = 1;
    }
  } finally {
    await instance.stop();
    rmSync(dir, { recursive: true, force: true });
    rmSync(home, { recursive: true, force: true });
  }
}

main().catch((err) => {
  process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
  process.exitCode = 1;
});
