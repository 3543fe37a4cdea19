#!/usr/bin/env node
// Measures what each Verdict service process uses, to set the chart's requests and limits:
// starts the distributed stack (scripts/stack.sh up: every service its own process on Kafka and
// FerretDB), samples each process's resident memory and CPU (from /proc) while idle and while a
// load of evaluations runs through the gateway (synchronous ones and queued ones), prints the
// peak and average per service, and stops the stack.
//   node deploy/kube/measure-resources.mjs [seconds of load, default 60]
/* global process, fetch, AbortSignal, setTimeout */
import { execFileSync } from "node:child_process";
import { readFileSync, mkdtempSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { crc32 } from "node:zlib";
import { randomInt } from "node:crypto";

const ROOT = resolve(import.meta.dirname, "../..");
const LOAD_SECONDS = Number(process.argv[2] ?? 60);
const B62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
let random = "";
for (let i = 0; i < 32; i++) random += B62[randomInt(62)];
let n = crc32(random) >>> 0;
let sum = "";
for (let i = 0; i < 6; i++) {
  sum = B62[n % 62] + sum;
  n = Math.floor(n / 62);
}
const KEY = `vdt_key_prod_${random}${sum}`;
const dataDir = mkdtempSync(join(tmpdir(), "verdict-measure-"));
const port = 18080 + randomInt(1000);
const env = { ...process.env, VERDICT_DATA_DIR: dataDir, VERDICT_BOOTSTRAP_API_KEY: KEY, VERDICT_HTTP_PORT: String(port), VERDICT_MCP_PORT: String(port + 10), VERDICT_GRPC_BASE_PORT: String(41000 + randomInt(5000)), VERDICT_KAFKA_PORT: String(port + 20), VERDICT_MONGODB_PORT: String(port + 30), VERDICT_EVALUATION_WORKERS: "2", VERDICT_LOG_LEVEL: "warn" };
const stack = (cmd) => execFileSync("bash", [join(ROOT, "scripts/stack.sh"), cmd], { env, stdio: ["ignore", "inherit", "inherit"] });
const CLK = Number(execFileSync("getconf", ["CLK_TCK"]).toString().trim());
const PAGE = Number(execFileSync("getconf", ["PAGESIZE"]).toString().trim());

function pids() {
  const dir = join(dataDir, "stack");
  return Object.fromEntries(
    readdirSync(dir)
      .filter((f) => f.endsWith(".pid") && !f.startsWith("kafka") && !f.startsWith("mongo"))
      .map((f) => [f.slice(0, -4), Number(readFileSync(join(dir, f), "utf8").trim())]),
  );
}
function sample(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  const rss = Number(readFileSync(`/proc/${pid}/statm`, "utf8").split(" ")[1]) * PAGE;
  return { cpu: (Number(stat[11]) + Number(stat[12])) / CLK, rss };
}

const stats = {};
async function watch(phase, seconds, work) {
  const procs = pids();
  let stop = false;
  const first = Object.fromEntries(Object.entries(procs).map(([k, p]) => [k, sample(p)]));
  const t0 = Date.now();
  const sampler = (async () => {
    while (!stop) {
      for (const [name, pid] of Object.entries(procs)) {
        const s = sample(pid);
        const st = (stats[`${phase} ${name}`] ??= { peak: 0, sum: 0, n: 0, cpu: 0 });
        st.peak = Math.max(st.peak, s.rss);
        st.sum += s.rss;
        st.n++;
      }
      await new Promise((r) => setTimeout(r, 500));
    }
  })();
  await Promise.all([work?.(() => stop) ?? Promise.resolve(), new Promise((r) => setTimeout(r, seconds * 1000))]);
  stop = true;
  await sampler;
  const secs = (Date.now() - t0) / 1000;
  for (const [name, pid] of Object.entries(procs)) stats[`${phase} ${name}`].cpu = (sample(pid).cpu - first[name].cpu) / secs;
}

const files = (count, secret) =>
  Array.from({ length: count }, (_, i) => ({ path: `src/f${i}.js`, status: "modified", content: i === 0 && secret ? 'const key = "AKIAZ7VQ3X4M2N8P5R6T";\n' : `export const v${i} = ${i};\n`.repeat(40) }));
let ok = 0;
let failed = 0;
async function client(stopped, queued) {
  while (!stopped()) {
    try {
      const res = await fetch(`http://127.0.0.1:${port}/v1/evaluations`, {
        method: "POST",
        headers: { authorization: `Bearer ${KEY}`, "content-type": "application/json" },
        body: JSON.stringify({ repository: "acme/load", ref: "main", files: files(queued ? 220 : 20, true) }),
        signal: AbortSignal.timeout(60_000),
      });
      await res.arrayBuffer();
      if (res.status === 201 || res.status === 202) ok++;
      else failed++;
    } catch {
      failed++;
    }
  }
}

try {
  stack("up");
  await watch("idle", 10);
  await watch("load", LOAD_SECONDS, (stopped) => Promise.all([client(stopped, false), client(stopped, false), client(stopped, false), client(stopped, true)]));
  const rows = Object.entries(stats)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([k, s]) => `${k.padEnd(22)} peak ${String(Math.round(s.peak / 1048576)).padStart(4)} MiB  mean ${String(Math.round(s.sum / s.n / 1048576)).padStart(4)} MiB  cpu ${String(Math.round(s.cpu * 1000)).padStart(5)}m`);
  process.stdout.write(`${rows.join("\n")}\nload: ${ok} evaluations accepted, ${failed} failed, ${LOAD_SECONDS} s, ${process.env.HOSTNAME ?? ""} ${execFileSync("nproc").toString().trim()} cores\n`);
} finally {
  stack("down");
}
