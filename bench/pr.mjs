// pnpm bench:pr [--pushes N]
//
// From a pushed commit to Verdict's status on the Gitea pull request, beside `verdict evaluate` on
// the same change. Starts Gitea (the binary scripts/install-gitea.sh builds and caches) and Verdict
// all-in-one, connects Gitea and a repository as docs/integrations/gitea.md does (a connection, an
// organization webhook, the repository), then pushes N realistic changes (50 by default) to pull
// requests of 10 pushes each, one at a time:
//
// - a change is 1 to 10 generated source files (bench/corpus.mjs, seed 11: TypeScript, Python, Go,
//   Java, YAML... of 0.4 to 48 KB, added or rewritten), and every fourth one (the 2nd, 6th, ...) leaks an AWS
//   access key id in one of its files;
// - push: timed from `git push` starting until Verdict's final status on
//   that commit (context `verdict`, no longer pending) is visible through Gitea's API, polled every
//   50 ms. Gitea's own webhook drives it: the delivery, Verdict reading the changed files back from
//   Gitea, the evaluation and the status and review posted. Split where the delivery reached
//   Verdict (the connection's last_event_at: both clocks are this machine's);
// - CLI: right after, in the same checkout at the same head, `verdict evaluate --base main` (what a
//   CI job runs on a pull request) against the same instance, timed from spawn to exit.
// Each pull request is opened after its first commit (not timed: the warm-up of each round).
// Prints p50, p95 and max of both, the ratio of the p95s, and the target (p95 under 5 s).
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { performance } from "node:perf_hooks";
import { dirname, join } from "node:path";
import process from "node:process";
import { Buffer } from "node:buffer";
import { setTimeout as sleep } from "node:timers/promises";
import { parseArgs } from "node:util";
import { call, createBenchOrganization, startInstance } from "./api-client.mjs";
import { fmtInt, print, printTable, QUICK, ROOT } from "./common.mjs";
import { generateCorpus } from "./corpus.mjs";
import { startGitea } from "./gitea.mjs";

const PUSHES_PER_PULL = 10;
const FILES_PER_CHANGE = [1, 1, 1, 2, 2, 3, 4, 6, 10];
const SEED = 11;
const TARGET_P95_MS = 5_000;
const POLL_MS = 50;
const STATUS_TIMEOUT_MS = 120_000;
// Pushes 2, 6, 10, ... leak a key (the second, so that a short run has one too).
const SECRET_EVERY = 4;

/** The q-th quantile (0..1) of values, nearest rank. */
export function quantile(values, q) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];
}

/** A fake but well-formed AWS access key id, different for each push. */
function awsKey(i) {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
  let s = "";
  for (let n = i * 7919 + 17, k = 0; k < 16; k++, n = (n * 31 + 7) % 1_000_003) s += alphabet[n % alphabet.length];
  return `AKIA${s}`;
}

/**
 * Verdict's final status on `sha` as Gitea shows it (polled), and when Verdict received the
 * delivery, both in ms after `since`. The delivery's arrival is the connection's last_event_at,
 * read once the status is final: the webhook sends only pull-request events, one per push.
 */
async function finalStatus(gitea, repo, sha, verdict, since) {
  const deadline = Date.now() + STATUS_TIMEOUT_MS;
  for (;;) {
    const combined = await gitea.api("GET", `/repos/${repo}/commits/${sha}/status`);
    const s = (combined.statuses ?? []).find((x) => x.context === "verdict");
    if (s && s.status !== "pending") {
      const ms = Date.now() - since;
      const { connections } = await call(verdict.url, verdict.key, "GET", "/v1/integrations/connections");
      return { ms, receivedMs: Date.parse(connections[0].last_event_at) - since, status: s.status };
    }
    if (Date.now() > deadline) throw new Error(`no final Verdict status on ${sha} within ${STATUS_TIMEOUT_MS} ms`);
    await sleep(POLL_MS);
  }
}

/** `verdict evaluate --base main` in dir; resolves with its wall time in ms and its exit code. */
function runCli(dir, url, key, home) {
  const args = [`${ROOT}libs/cli/dist/bin.js`, "evaluate", "--base", "main", "--format", "json"];
  const env = { PATH: process.env.PATH ?? "", HOME: home, VERDICT_URL: url, VERDICT_API_KEY: key };
  return new Promise((resolve, reject) => {
    const start = performance.now();
    const child = spawn(process.execPath, args, { cwd: dir, env, stdio: ["ignore", "ignore", "pipe"] });
    let err = "";
    child.stderr.on("data", (c) => (err += c));
    child.once("error", reject);
    child.once("close", (code) => {
      // 1: the evaluation failed (a planted key); anything else is an error.
      if (code !== 0 && code !== 1) return reject(new Error(`verdict evaluate exited ${code}:\n${err}`));
      resolve({ ms: performance.now() - start, failed: code === 1 });
    });
  });
}

async function main() {
  const { values } = parseArgs({ options: { pushes: { type: "string", default: QUICK ? "3" : "50" } } });
  const pushes = Number(values.pushes);
  if (!Number.isInteger(pushes) || pushes < 1) throw new Error("usage: pnpm bench:pr [--pushes N (default 50)]");

  // Gitea runs on 127.0.0.1: the operator setting for a provider inside the network.
  process.env.VERDICT_INTEGRATIONS_ALLOW_PRIVATE = "true";
  const home = mkdtempSync(join(tmpdir(), "verdict-bench-home-"));
  const [gitea, instance] = await Promise.all([startGitea(), startInstance()]);
  try {
    const key = await createBenchOrganization(instance.url, instance.operatorKey);
    const verdict = { url: instance.url, key };
    // Connected as docs/integrations/gitea.md says: the connection, Gitea's webhook, the repository.
    const webhookSecret = "bench-webhook-secret-0123456789";
    await gitea.api("POST", "/orgs", { username: "bench", visibility: "private" });
    await gitea.api("POST", "/orgs/bench/repos", {
      name: "app",
      auto_init: true,
      default_branch: "main",
      private: true,
    });
    const connection = await call(instance.url, key, "POST", "/v1/integrations/connections", {
      provider: "gitea",
      base_url: gitea.url,
      token: gitea.admin.token,
      webhook_secret: webhookSecret,
    });
    await gitea.api("POST", "/orgs/bench/hooks", {
      type: "gitea",
      active: true,
      events: ["pull_request"],
      config: { url: connection.events_url, content_type: "json", secret: webhookSecret },
    });
    await call(instance.url, key, "POST", "/v1/repositories", { provider: "gitea", name: "bench/app" });

    const checkout = await gitea.clone("bench", "app");
    const corpus = generateCorpus({ totalBytes: pushes * 40_000, seed: SEED });
    let next = 0;
    let changes = 0;
    const written = [];
    /** Writes the next change (files from the corpus, sometimes rewriting one already pushed) and commits it. */
    const change = async (leaks) => {
      const i = changes++;
      const count = FILES_PER_CHANGE[i % FILES_PER_CHANGE.length];
      const files = [];
      for (let k = 0; k < count; k++) {
        const file = corpus[next++ % corpus.length];
        // Every third change rewrites a file of an earlier change (a modification, not an addition).
        const path = k === 0 && i % 3 === 2 && written.length > 0 ? written[i % written.length] : file.path;
        files.push({ path, content: file.content.toString("utf8") });
      }
      if (leaks) files[0].content += `\naws_access_key_id = "${awsKey(i)}"\n`;
      for (const f of files) {
        mkdirSync(dirname(join(checkout.dir, f.path)), { recursive: true });
        writeFileSync(join(checkout.dir, f.path), f.content);
        written.push(f.path);
      }
      await checkout.git("add", "--all");
      await checkout.git("commit", "--quiet", "-m", `change ${i + 1}`);
      const sha = (await checkout.git("rev-parse", "HEAD")).trim();
      return { sha, files: files.length, bytes: files.reduce((n, f) => n + Buffer.byteLength(f.content), 0), leaks };
    };

    const rows = [];
    for (let i = 0; i < pushes; i++) {
      if (i % PUSHES_PER_PULL === 0) {
        // A new pull request from main: its first commit and the opening are not timed.
        const branch = `feature/${i / PUSHES_PER_PULL + 1}`;
        await checkout.git("checkout", "--quiet", "-B", branch, "origin/main");
        const opening = await change(false);
        await checkout.git("push", "--quiet", "origin", branch);
        await gitea.api("POST", "/repos/bench/app/pulls", { head: branch, base: "main", title: `Change ${branch}` });
        await finalStatus(gitea, "bench/app", opening.sha, verdict, Date.now());
      }
      const c = await change(i % SECRET_EVERY === 1);
      // Wall-clock time (Date.now): Verdict's last_event_at is compared with it.
      const pushed = Date.now();
      await checkout.git("push", "--quiet", "origin", "HEAD");
      const pushMs = Date.now() - pushed;
      const { ms, receivedMs, status } = await finalStatus(gitea, "bench/app", c.sha, verdict, pushed);
      const cli = await runCli(checkout.dir, instance.url, key, home);
      rows.push({ ...c, prMs: ms, pushMs, receivedMs, status, cliMs: cli.ms, cliFailed: cli.failed });
    }

    const pr = rows.map((r) => r.prMs);
    const pushed = rows.map((r) => r.pushMs);
    const delivered = rows.map((r) => r.receivedMs - r.pushMs);
    const checked = rows.map((r) => r.prMs - r.receivedMs);
    const cli = rows.map((r) => r.cliMs);
    const sizes = rows.map((r) => r.bytes);
    const p95 = quantile(pr, 0.95);
    print(
      "Verdict pull-request benchmark: push to Verdict's status on the Gitea pull request, beside verdict evaluate",
    );
    print(`  gitea      ${gitea.version} at ${gitea.url} (scripts/install-gitea.sh, SQLite), organization webhook`);
    print(`  verdict    all-in-one at ${instance.url}, connection and repository as docs/integrations/gitea.md`);
    print(
      `  changes    ${rows.length} pushes to ${Math.ceil(rows.length / PUSHES_PER_PULL)} pull request(s), ` +
        `${Math.min(...rows.map((r) => r.files))}-${Math.max(...rows.map((r) => r.files))} files and ` +
        `${(quantile(sizes, 0.5) / 1e3).toFixed(1)} KB (median, max ${(Math.max(...sizes) / 1e3).toFixed(1)} KB) each, ` +
        `${rows.filter((r) => r.leaks).length} leaking a key (bench/corpus.mjs, seed ${SEED})`,
    );
    print("  timing     push: `git push` started -> final status visible in Gitea's API (polled every 50 ms),");
    print("             split at the delivery's arrival (the connection's last_event_at)");
    print("             CLI: `verdict evaluate --base main` at the same head, spawn to exit\n");
    /** A row: its label, p50, p95 and max of the times, and how many failed (when it says). */
    const times = (label, values, failing = "") => [
      label,
      ...[quantile(values, 0.5), quantile(values, 0.95), Math.max(...values)].map((v) => fmtInt(Math.round(v))),
      failing,
    ];
    const of = (n) => `${n} of ${rows.length}`;
    printTable([
      ["", "p50 ms", "p95 ms", "max ms", "failing"],
      times("pull request status (Gitea)", pr, of(rows.filter((r) => r.status === "failure").length)),
      times("  git push (until it returns)", pushed),
      times("  Gitea: pushed -> delivery at Verdict", delivered),
      times("  Verdict: delivery -> status visible", checked),
      times("verdict evaluate --base main", cli, of(rows.filter((r) => r.cliFailed).length)),
    ]);
    print();
    print(`  pull request / CLI (p95)   ${(p95 / quantile(cli, 0.95)).toFixed(2)}x`);
    print(
      `  pull request p95           ${fmtInt(Math.round(p95))} ms   target < ${fmtInt(TARGET_P95_MS)} ms   ${p95 < TARGET_P95_MS ? "met" : "MISSED"}`,
    );
    const missed = rows.filter((r) => r.leaks && r.status !== "failure");
    if (missed.length > 0) {
      print(`  WARNING: ${missed.length} change(s) that leak a key did not get a failing status`);
      process.exitCode = 1;
    }
    const differ = rows.filter((r) => (r.status === "failure") !== r.cliFailed);
    if (differ.length > 0) {
      print(`  WARNING: the pull request's status and the CLI differ on ${differ.length} change(s)`);
      process.exitCode = 1;
    }
  } finally {
    await Promise.all([instance.stop(), gitea.stop()]);
    rmSync(home, { recursive: true, force: true });
  }
}

main().catch((err) => {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exitCode = 1;
});
