// pnpm bench:history [PATH]
//
// `verdict scan history` beside `gitleaks git` on the same history: the commits of HEAD in the
// git work tree at PATH (merges add nothing of their own on either side: neither diffs a merge
// against its parents). Verdict runs against an all-in-one this script starts (free port,
// temporary data directory, an organization of its own with the API-key rules on), the real CLI
// from spawn to exit, with the organization's policies; gitleaks is the version the detection
// benchmark builds (bench/detection/gitleaks-samples.mjs), `gitleaks git --log-opts=HEAD`.
// Verdict is measured two ways, both printed: (a) every policy on (`--every-policy`: secrets,
// insecure code, configuration), and (b) the work gitleaks does, Verdict's secrets policies only
// (what `scan history` runs by default, the secrets category). One run of each (the reading of git is the page
// cache's second pass for whichever runs second: Verdict runs second), with the server and then
// --offline (the organization's policies pulled first, untimed; the engine in the CLI's process).
// Printed: commits per second of each, the ratios (target: Verdict >= 2x gitleaks), the secrets
// each found that the other did not (same commit, file and line), listed, and every finding the
// offline scans and the server's, or the secrets-only scans and every policy's secrets, do not
// share. VERDICT_BENCH_ROUNDS=N adds N rounds of gitleaks and the two offline scans, alternating,
// each with the load, and the ratios of their medians: of wall time and of CPU seconds (`git`
// included).
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
 * ROUNDS more runs of gitleaks and the two offline scans (every policy, secrets only), alternating
 * (the machine's load moves: each round shares its minute), each with the load when it started;
 * then the medians' ratios, of wall time and of CPU seconds. Every offline run must find what the
 * first did.
 */
async function offlineRounds(gitleaksRun, everyRun, secretsRun, found) {
  print(
    `\n  ${ROUNDS} more rounds, alternating: gitleaks, then Verdict --offline with every policy, then secrets only`,
  );
  const rows = [
    ["", "load", "gitleaks s", "CPU s", "every policy s", "CPU s", "findings", "secrets only s", "CPU s", "findings"],
  ];
  const g = [];
  const e = [];
  const o = [];
  const count = (r, want, what, i) => {
    const n = JSON.parse(r.stdout).findings.length;
    if (n !== want) throw new Error(`round ${i}: the offline scan (${what}) found ${n}, the first ${want}`);
    return fmtInt(n);
  };
  for (let i = 1; i <= ROUNDS; i++) {
    const load = [];
    load.push(loadavg()[0]);
    const a = await gitleaksRun();
    load.push(loadavg()[0]);
    const b = await everyRun();
    load.push(loadavg()[0]);
    const c = await secretsRun();
    g.push(a);
    e.push(b);
    o.push(c);
    rows.push([
      `round ${i}`,
      load.map((l) => l.toFixed(1)).join(", "),
      a.seconds.toFixed(2),
      a.cpu.toFixed(2),
      b.seconds.toFixed(2),
      b.cpu.toFixed(2),
      count(b, found.every, "every policy", i),
      c.seconds.toFixed(2),
      c.cpu.toFixed(2),
      count(c, found.secrets, "secrets only", i),
    ]);
  }
  printTable(rows);
  const med = (runs, key) => median(runs.map((r) => r[key]));
  print();
  for (const [name, runs] of [
    ["every policy", e],
    ["secrets only", o],
  ]) {
    print(`  median ${name} offline / gitleaks, wall   ${ratioLine(med(g, "seconds") / med(runs, "seconds"), TARGET)}`);
    print(
      `  median ${name} offline / gitleaks, per CPU-second   ${ratioLine(med(g, "cpu") / med(runs, "cpu"), TARGET)}`,
    );
  }
  print(
    `  medians, seconds (CPU s): gitleaks ${med(g, "seconds").toFixed(2)} (${med(g, "cpu").toFixed(2)}), every policy ${med(e, "seconds").toFixed(2)} (${med(e, "cpu").toFixed(2)}), secrets only ${med(o, "seconds").toFixed(2)} (${med(o, "cpu").toFixed(2)})`,
  );
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
    const serverRun = async (...args) => {
      const cpuBefore = processCpuSeconds(instance.pid);
      const r = await verdictRun(...args);
      return { ...r, server: processCpuSeconds(instance.pid) - cpuBefore };
    };
    // scan history runs the secrets category by default; --every-policy runs them all.
    const EVERY = ["--every-policy"];
    const vd = await serverRun(...EVERY);
    const vdSecrets = await serverRun();
    // Offline: the organization's policies pulled first (not timed), then scanned in the CLI's process.
    const pulled = spawnSync(process.execPath, [`${ROOT}libs/cli/dist/bin.js`, "policies", "pull"], {
      cwd: repo,
      env: cliEnv,
      encoding: "utf8",
    });
    if (pulled.status !== 0) throw new Error(`verdict policies pull exited ${pulled.status}:\n${pulled.stderr}`);
    const off = await verdictRun("--offline", ...EVERY);
    const offSecrets = await verdictRun("--offline");
    const loadAfter = loadavg()[0];

    // gitleaks finds nothing but secrets: Verdict's secrets policies' findings are what it compares with.
    const { policies } = await call(instance.url, key, "GET", "/v1/policies");
    const secrets = new Set(policies.filter((p) => p.category === SECRETS).map((p) => p.id));
    const findingsOf = (r) => JSON.parse(r.stdout).findings;
    const all = findingsOf(vd);
    const allOffline = findingsOf(off);
    const onlySecrets = findingsOf(vdSecrets);
    const onlySecretsOffline = findingsOf(offSecrets);
    const secretsIn = (found) => found.filter((f) => secrets.has(f.policy_id));
    const verdict = onlySecrets.map((f) => ({ commit: f.commit, file: f.file, line: f.line, rule: f.policy_id }));
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
    // Every finding, one scan against another: the same engine on the same texts finds the same.
    const key1 = (f) => `${where(f)} ${f.policy_id} ${f.column} ${f.fingerprint}`;
    const differences = (label, a, aName, b, bName) => {
      const inA = new Set(a.map(key1));
      const inB = new Set(b.map(key1));
      const onlyA = a.filter((f) => !inB.has(key1(f)));
      const onlyB = b.filter((f) => !inA.has(key1(f)));
      print(`  ${label}: ${fmtInt(onlyA.length)} only ${aName}, ${fmtInt(onlyB.length)} only ${bName}`);
      for (const f of onlyA) print(`    ${aName} only: ${where(f)} ${f.policy_id}`);
      for (const f of onlyB) print(`    ${bName} only: ${where(f)} ${f.policy_id}`);
    };

    print("History scan benchmark: verdict scan history vs gitleaks git, the same commits");
    print(`  repository   ${repo} (HEAD: ${fmtInt(commits)} commits, ${fmtInt(withMerges - commits)} merges more)`);
    print(`  Verdict      ${instance.url} (all-in-one started by this script, dedicated organization)`);
    print(`  timing       one run each, from spawn to exit; gitleaks, then Verdict with the server, then --offline`);
    print(`  policies     every policy: --every-policy, secrets, insecure code and configuration;`);
    print(
      `               secrets only: scan history's default, the ${SECRETS} category (${secrets.size} policies), the work gitleaks does`,
    );
    print(
      `  load         ${loadBefore.toFixed(1)} at the start, ${loadAfter.toFixed(1)} at the end (1-minute average, ${availableParallelism()} cores)\n`,
    );
    const side = (name, r, found, secretCount) => [
      name,
      (commits / r.seconds).toFixed(1),
      r.seconds.toFixed(2),
      `${fmtInt(found)} (${fmtInt(secretCount)})`,
      r.cpu.toFixed(2),
      r.server === undefined ? "-" : r.server.toFixed(2),
    ];
    printTable([
      ["", "commits/s", "seconds", "findings (secrets)", "CPU s (client)", "CPU s (Verdict)"],
      side(`gitleaks ${GITLEAKS_VERSION} git`, gl, gitleaks.length, gitleaks.length),
      side("every policy: verdict scan history", vd, all.length, secretsIn(all).length),
      side("every policy: verdict scan history --offline", off, allOffline.length, secretsIn(allOffline).length),
      side("secrets only: verdict scan history", vdSecrets, onlySecrets.length, onlySecrets.length),
      side(
        "secrets only: verdict scan history --offline",
        offSecrets,
        onlySecretsOffline.length,
        onlySecretsOffline.length,
      ),
    ]);
    print();
    for (const [name, r] of [
      ["every policy", vd],
      ["every policy, offline", off],
      ["secrets only", vdSecrets],
      ["secrets only, offline", offSecrets],
    ]) {
      print(`  ${name} / gitleaks, wall   ${ratioLine(gl.seconds / r.seconds, TARGET)}`);
      print(`  ${name} / gitleaks, per CPU-second   ${ratioLine(gl.cpu / (r.cpu + (r.server ?? 0)), TARGET)}`);
    }
    print(
      `  same place (commit, file, line)   ${fmtInt(verdict.length - onlyV.length)} of Verdict's, ${fmtInt(gitleaks.length - onlyG.length)} of gitleaks'`,
    );
    print(`  only Verdict (${onlyV.length}):`);
    for (const f of onlyV) print(`    ${where(f)} ${f.rule}`);
    print(`  only gitleaks (${onlyG.length}):`);
    for (const f of onlyG) print(`    ${where(f)} ${f.rule}`);
    differences("offline against the server, every policy", allOffline, "offline", all, "the server");
    differences("offline against the server, secrets only", onlySecretsOffline, "offline", onlySecrets, "the server");
    differences(
      "secrets only against every policy's secrets",
      onlySecrets,
      "secrets only",
      secretsIn(all),
      "every policy",
    );
    if (ROUNDS > 0)
      await offlineRounds(
        gitleaksRun,
        () => verdictRun("--offline", ...EVERY),
        () => verdictRun("--offline"),
        {
          every: allOffline.length,
          secrets: onlySecretsOffline.length,
        },
      );
  } finally {
    await instance.stop();
    rmSync(home, { recursive: true, force: true });
    if (!given) rmSync(repo, { recursive: true, force: true });
  }
}

await main();
