// pnpm bench:history [PATH]
//
// `verdict scan history` beside `gitleaks git` on the same history: the commits of HEAD in the
// git work tree at PATH (merges add nothing of their own on either side: neither diffs a merge
// against its parents). Verdict runs against an all-in-one this script starts (free port,
// temporary data directory, an organization of its own with the API-key rules on), the real CLI
// from spawn to exit, with the organization's policies; gitleaks is the version the detection
// benchmark builds (bench/detection/gitleaks-samples.mjs), `gitleaks git --log-opts=HEAD`.
// One run of each (a history scan is minutes, and its reading of git is the page cache's
// second pass for whichever runs second: Verdict runs second). Printed: commits per second of
// each, the ratio (target: Verdict >= 2x gitleaks), and the secrets each found that the other
// did not (same commit, file and line; Verdict's secrets policies only), listed. Then the same scan
// with --offline (the organization's policies pulled first, untimed; the engine in the CLI's
// process), its rate and ratio, and the findings it and the server's scan do not share.
// VERDICT_BENCH_ROUNDS=N adds N rounds of gitleaks and the offline scan, alternating, each with
// the load, and the ratios of their medians: of wall time and of CPU seconds (`git` included).
//
// Without PATH, VERDICT_BENCH_QUICK=1 makes a small repository here (a smoke run).
import { Buffer } from "node:buffer";
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { performance } from "node:perf_hooks";
import process from "node:process";
import { call, createBenchOrganization, processCpuSeconds, startInstance } from "./api-client.mjs";
import { childrenCpuSeconds, fmtInt, median, print, printTable, QUICK, ratioLine, ROOT } from "./common.mjs";
import { GITLEAKS_VERSION, gitleaksBinary } from "./detection/gitleaks-samples.mjs";

const TARGET = 2;
const SECRETS = "secrets";

/** Runs a command to its end; resolves with wall and CPU seconds, stdout and the exit code. */
function timedRun(cmd, args, opts) {
  return new Promise((done, reject) => {
    const cpuBefore = childrenCpuSeconds();
    const start = performance.now();
    const child = spawn(cmd, args, { ...opts, stdio: ["ignore", "pipe", "pipe"] });
    const out = [];
    let err = "";
    child.stdout.on("data", (c) => out.push(c));
    child.stderr.on("data", (c) => (err += c));
    child.once("error", reject);
    child.once("close", (code) =>
      done({
        code,
        seconds: (performance.now() - start) / 1e3,
        cpu: childrenCpuSeconds() - cpuBefore,
        stdout: Buffer.concat(out).toString("utf8"),
        stderr: err,
      }),
    );
  });
}

const git = (cwd, ...args) => spawnSync("git", args, { cwd, encoding: "utf8" }).stdout;

/** A small repository with a few keys added and removed (the smoke run's). */
function smallRepository() {
  const dir = mkdtempSync(join(tmpdir(), "verdict-bench-history-"));
  const env = {
    ...process.env,
    GIT_AUTHOR_NAME: "b",
    GIT_AUTHOR_EMAIL: "b@b",
    GIT_COMMITTER_NAME: "b",
    GIT_COMMITTER_EMAIL: "b@b",
  };
  spawnSync("git", ["init", "-q", "-b", "main"], { cwd: dir });
  for (let i = 0; i < 30; i++) {
    const key = i % 10 === 3 ? `const k = "AKIA${String(i).padStart(4, "0")}Z7VQ3X4M2N8P";\n` : "";
    writeFileSync(join(dir, `f${i % 4}.js`), `export const n = ${i};\n${key}`);
    spawnSync("git", ["add", "."], { cwd: dir, env });
    spawnSync("git", ["commit", "-q", "-m", `c${i}`], { cwd: dir, env });
  }
  return dir;
}

/** Alternating rounds of gitleaks and `scan history --offline` after the first (VERDICT_BENCH_ROUNDS). */
const ROUNDS = Math.max(0, Number(process.env.VERDICT_BENCH_ROUNDS ?? 0) || 0);

/**
 * ROUNDS more runs of gitleaks and the offline scan, alternating (the machine's load moves: each
 * pair shares its minute), each with the load when it started; then the medians' ratios, of wall
 * time and of CPU seconds. Every offline run must find what the first did.
 */
async function offlineRounds(gitleaksRun, offlineRun, found) {
  print(`\n  ${ROUNDS} more rounds, alternating: gitleaks, then Verdict --offline`);
  const rows = [["", "load", "gitleaks s", "CPU s", "offline s", "CPU s", "findings"]];
  const g = [];
  const o = [];
  for (let i = 1; i <= ROUNDS; i++) {
    const loadG = loadavg()[0];
    const a = await gitleaksRun();
    const loadO = loadavg()[0];
    const b = await offlineRun();
    const n = JSON.parse(b.stdout).findings.length;
    if (n !== found) throw new Error(`round ${i}: the offline scan found ${n}, the first ${found}`);
    g.push(a);
    o.push(b);
    rows.push([
      `round ${i}`,
      `${loadG.toFixed(1)}, ${loadO.toFixed(1)}`,
      a.seconds.toFixed(2),
      a.cpu.toFixed(2),
      b.seconds.toFixed(2),
      b.cpu.toFixed(2),
      fmtInt(n),
    ]);
  }
  printTable(rows);
  const med = (runs, key) => median(runs.map((r) => r[key]));
  print();
  print(`  median offline / gitleaks, wall   ${ratioLine(med(g, "seconds") / med(o, "seconds"), TARGET)}`);
  print(`  median offline / gitleaks, per CPU-second   ${ratioLine(med(g, "cpu") / med(o, "cpu"), TARGET)}`);
}

const where = (f) => `${f.commit.slice(0, 10)} ${f.file}:${f.line}`;

async function main() {
  const given = process.argv[2];
  if (!given && !QUICK)
    throw new Error("usage: pnpm bench:history PATH (a git work tree; VERDICT_BENCH_QUICK=1 without PATH)");
  const repo = given ? resolve(given) : smallRepository();
  const commits = Number(git(repo, "rev-list", "--count", "--no-merges", "HEAD").trim());
  const withMerges = Number(git(repo, "rev-list", "--count", "HEAD").trim());
  const bin = gitleaksBinary();
  const home = mkdtempSync(join(tmpdir(), "verdict-bench-home-"));
  const report = join(home, "gitleaks.json");
  const instance = await startInstance();
  try {
    const key = await createBenchOrganization(instance.url, instance.operatorKey);
    const gitleaksRun = () =>
      timedRun(
        bin,
        [
          "git",
          repo,
          "--log-opts=HEAD",
          "--report-format",
          "json",
          "--report-path",
          report,
          "--no-banner",
          "--log-level",
          "error",
          "--exit-code",
          "0",
        ],
        { env: { PATH: process.env.PATH ?? "", HOME: home } },
      ).then((r) => {
        if (r.code !== 0) throw new Error(`gitleaks exited ${r.code}:\n${r.stderr}`);
        return r;
      });
    const loadBefore = loadavg()[0];
    const gl = await gitleaksRun();
    const cliEnv = {
      PATH: process.env.PATH ?? "",
      HOME: home,
      XDG_CONFIG_HOME: join(home, ".config"),
      XDG_CACHE_HOME: join(home, ".cache"),
      VERDICT_URL: instance.url,
      VERDICT_API_KEY: key,
    };
    const verdictRun = (...args) =>
      timedRun(process.execPath, [`${ROOT}libs/cli/dist/bin.js`, "scan", "history", "--json", "--restart", ...args], {
        cwd: repo,
        env: cliEnv,
      }).then((r) => {
        if (r.code !== 0 && r.code !== 1) throw new Error(`verdict scan history exited ${r.code}:\n${r.stderr}`);
        return r;
      });
    const cpuBefore = processCpuSeconds(instance.pid);
    const vd = await verdictRun();
    const serverCpu = processCpuSeconds(instance.pid) - cpuBefore;
    // Offline: the organization's policies pulled first (not timed), then scanned in the CLI's process.
    const pulled = spawnSync(process.execPath, [`${ROOT}libs/cli/dist/bin.js`, "policies", "pull"], {
      cwd: repo,
      env: cliEnv,
      encoding: "utf8",
    });
    if (pulled.status !== 0) throw new Error(`verdict policies pull exited ${pulled.status}:\n${pulled.stderr}`);
    const off = await verdictRun("--offline");

    // Secrets only on Verdict's side (gitleaks finds nothing else): its secrets policies' findings.
    const { policies } = await call(instance.url, key, "GET", "/v1/policies");
    const secrets = new Set(policies.filter((p) => p.category === SECRETS).map((p) => p.id));
    const all = JSON.parse(vd.stdout).findings;
    const allOffline = JSON.parse(off.stdout).findings;
    const secretsOf = (found) =>
      found
        .filter((f) => secrets.has(f.policy_id))
        .map((f) => ({ commit: f.commit, file: f.file, line: f.line, rule: f.policy_id }));
    const verdict = secretsOf(all);
    const offline = secretsOf(allOffline);
    const gitleaks = JSON.parse(readFileSync(report, "utf8")).map((f) => ({
      commit: f.Commit,
      file: f.File,
      line: f.StartLine,
      rule: f.RuleID,
    }));
    const seenV = new Set(verdict.map(where));
    const seenG = new Set(gitleaks.map(where));
    const onlyV = verdict.filter((f) => !seenG.has(where(f)));
    const onlyG = gitleaks.filter((f) => !seenV.has(where(f)));
    // Every finding (all policies), server against offline: the same engine on the same texts.
    const key1 = (f) => `${where(f)} ${f.policy_id} ${f.column} ${f.fingerprint}`;
    const serverKeys = new Set(all.map(key1));
    const offlineKeys = new Set(allOffline.map(key1));
    const onlyServer = all.filter((f) => !offlineKeys.has(key1(f)));
    const onlyOffline = allOffline.filter((f) => !serverKeys.has(key1(f)));

    print("History scan benchmark: verdict scan history vs gitleaks git, the same commits");
    print(`  repository   ${repo} (HEAD: ${fmtInt(commits)} commits, ${fmtInt(withMerges - commits)} merges more)`);
    print(`  Verdict      ${instance.url} (all-in-one started by this script, dedicated organization)`);
    print(`  timing       one run each, from spawn to exit; gitleaks, then Verdict, then Verdict --offline`);
    print(`  load         ${loadBefore.toFixed(1)} (1-minute average, ${availableParallelism()} cores) at the start\n`);
    const side = (name, r, found, secretCount, server) => [
      name,
      (commits / r.seconds).toFixed(1),
      r.seconds.toFixed(2),
      `${fmtInt(found)} (${fmtInt(secretCount)})`,
      r.cpu.toFixed(2),
      server,
    ];
    printTable([
      ["", "commits/s", "seconds", "findings (secrets)", "CPU s (client)", "CPU s (Verdict)"],
      side(`gitleaks ${GITLEAKS_VERSION} git`, gl, gitleaks.length, gitleaks.length, "-"),
      side("verdict scan history", vd, all.length, verdict.length, serverCpu.toFixed(2)),
      side("verdict scan history --offline", off, allOffline.length, offline.length, "-"),
    ]);
    print();
    print(`  Verdict / gitleaks   ${ratioLine(gl.seconds / vd.seconds, TARGET)}`);
    print(`  Verdict offline / gitleaks   ${ratioLine(gl.seconds / off.seconds, TARGET)}`);
    print(
      `  same place (commit, file, line)   ${fmtInt(verdict.length - onlyV.length)} of Verdict's, ${fmtInt(gitleaks.length - onlyG.length)} of gitleaks'`,
    );
    print(`  only Verdict (${onlyV.length}):`);
    for (const f of onlyV) print(`    ${where(f)} ${f.rule}`);
    print(`  only gitleaks (${onlyG.length}):`);
    for (const f of onlyG) print(`    ${where(f)} ${f.rule}`);
    print(
      `  offline against the server, every policy: ${fmtInt(onlyOffline.length)} only offline, ${fmtInt(onlyServer.length)} only the server`,
    );
    for (const f of onlyOffline) print(`    offline only: ${where(f)} ${f.policy_id}`);
    for (const f of onlyServer) print(`    server only: ${where(f)} ${f.policy_id}`);
    if (ROUNDS > 0) await offlineRounds(gitleaksRun, () => verdictRun("--offline"), allOffline.length);
  } finally {
    await instance.stop();
    rmSync(home, { recursive: true, force: true });
    if (!given) rmSync(repo, { recursive: true, force: true });
  }
}

await main();
