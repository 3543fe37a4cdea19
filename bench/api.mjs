// pnpm bench:api [URL]
//
// Throughput of POST /v1/evaluations end to end (HTTP, validation, gRPC between the services,
// matching, storage), compared with the engine alone scanning the same files in this process.
// The ratio shows what the service costs on top of matching (all-in-one runs the gateway and
// every service in one Node.js process, so both sides have one thread for the work).
//
// Target: URL (default http://127.0.0.1:8080) with the key in VERDICT_API_KEY. With neither, the
// script starts Verdict all-in-one itself (free port, temporary data directory, generated
// operator key), creates an organization whose rate limits the load cannot reach, and stops the
// instance at the end.
//
// Load: 10 distinct payloads of 40 files of ~10 KB (the generator of bench:engine), sent by 2
// concurrent clients (node:http, kept-alive connections, bodies encoded once) for 15 seconds or
// 200 requests, after one warm-up request per payload (which also compiles the organization's
// engine). Both sides run the organization's enabled built-in policies with its settings (an
// organization this script creates gets the API-key rules switched on, as in bench:engine);
// requests name those policies, so custom ones do not run.
//
// CPU time per request: the instance's (all its threads, from /proc, when this script started
// it) and this process's under the load; and, measured here on one thread, the stages every
// request's file contents pass through (JSON parse, validation, the gateway's mapping and
// protobuf encode, protobuf decode, matching). The difference is what HTTP, gRPC, storage,
// events, logs and GC cost.
import { Buffer } from "node:buffer";
import { Agent } from "node:http";
import { performance } from "node:perf_hooks";
import process from "node:process";
import { call, createBenchOrganization, evaluate, processCpuSeconds, startInstance } from "./api-client.mjs";
import {
  compileEngine,
  fmtInt,
  fmtRate,
  importBuilt,
  patternCount,
  peakRss,
  print,
  printTable,
  QUICK,
  ratioLine,
  resolveBuiltins,
  warmMedian,
} from "./common.mjs";
import { generateFiles } from "./corpus.mjs";

const DEFAULT_URL = "http://127.0.0.1:8080";
// VERDICT_BENCH_QUICK=1: 2 payloads of 5 files, 10 requests (a smoke run).
const PAYLOADS = QUICK ? 2 : 10;
const FILES_PER_PAYLOAD = QUICK ? 5 : 40;
const FILE_BYTES = 10 * 1024;
const CONCURRENCY = 2;
const DURATION_MS = QUICK ? 2_000 : 15_000;
const MAX_REQUESTS = QUICK ? 10 : 200;
const ENGINE_PASSES = QUICK ? 1 : 5;
const TARGET_VS_ENGINE = 0.5;

/** The organization's enabled built-ins with its settings, resolved as its engine receives them. */
async function organizationPolicies(url, key) {
  const { policies } = await call(url, key, "GET", "/v1/policies?enabled=true");
  const ids = policies.filter((p) => p.builtin).map((p) => p.id);
  const settings = {};
  for (const id of ids) settings[id] = (await call(url, key, "GET", `/v1/policies/${id}`)).settings;
  const { settings: org } = await call(url, key, "GET", "/v1/organization");
  return {
    ids,
    policies: resolveBuiltins(settings).filter((p) => ids.includes(p.id)),
    allowSuppression: org.allow_inline_suppression,
  };
}

/** Sends the payloads round-robin from CONCURRENCY clients until the time or request budget ends. */
async function load(agent, url, key, payloads, instancePid) {
  const latencies = [];
  let bytes = 0;
  let sent = 0;
  const cpuBefore = { client: process.cpuUsage(), instance: instancePid && processCpuSeconds(instancePid) };
  const start = performance.now();
  const deadline = start + DURATION_MS;
  const client = async () => {
    while (sent < MAX_REQUESTS && performance.now() < deadline) {
      const payload = payloads[sent++ % payloads.length];
      const t = performance.now();
      await evaluate(agent, url, key, payload.body);
      latencies.push(performance.now() - t);
      bytes += payload.bytes;
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, client));
  const seconds = (performance.now() - start) / 1e3;
  const clientCpu = process.cpuUsage(cpuBefore.client);
  const instanceCpu =
    cpuBefore.instance === undefined ? undefined : processCpuSeconds(instancePid) - cpuBefore.instance;
  return {
    seconds,
    latencies,
    bytes,
    cpu: { client: (clientCpu.user + clientCpu.system) / 1e6, instance: instanceCpu },
  };
}

function percentile(values, p) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

async function main() {
  const urlArg = process.argv[2];
  const envKey = process.env.VERDICT_API_KEY;
  if (urlArg && !envKey) throw new Error("Set VERDICT_API_KEY to a key of the instance at " + urlArg);
  const instance = urlArg || envKey ? undefined : await startInstance();
  try {
    // Accepts the base URL with or without the /v1 prefix of the API.
    const url = (urlArg ?? instance?.url ?? DEFAULT_URL).replace(/\/+$/, "").replace(/\/v1$/, "");
    const key = instance ? await createBenchOrganization(url, instance.operatorKey) : envKey;
    const { ids, policies, allowSuppression } = await organizationPolicies(url, key);

    const payloads = Array.from({ length: PAYLOADS }, (_, i) => {
      const files = generateFiles({ count: FILES_PER_PAYLOAD, size: FILE_BYTES, seed: 1000 + i });
      const create = {
        repository: "bench/api",
        ref: `bench-${i}`,
        policies: ids,
        files: files.map((f) => ({ path: f.path, status: "modified", content: f.content.toString("utf8") })),
      };
      return {
        files,
        body: Buffer.from(JSON.stringify(create), "utf8"),
        bytes: files.reduce((n, f) => n + f.content.length, 0),
      };
    });

    // Warm-up, one request per payload; their summaries are the API's findings per pass.
    const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
    let apiFindings = 0;
    let api;
    try {
      for (const p of payloads)
        apiFindings += JSON.parse(await evaluate(agent, url, key, p.body)).summary.total_violations;
      api = await load(agent, url, key, payloads, instance?.pid);
    } finally {
      agent.destroy();
    }

    // The engine alone, in this process, on the same files. A timed run is ENGINE_PASSES passes
    // over all the payloads, long enough not to be lost in timer and scheduling noise.
    const engine = compileEngine(policies);
    const allFiles = payloads.flatMap((p) => p.files);
    const passBytes = payloads.reduce((n, p) => n + p.bytes, 0);
    const scanAll = () =>
      allFiles.reduce((n, f) => n + engine.scan(f.path, f.content, { allowSuppression }).matched, 0);
    const inProcess = warmMedian(() => {
      let findings = 0;
      for (let i = 0; i < ENGINE_PASSES; i++) findings = scanAll();
      return findings;
    });

    // The request's way to the engine without HTTP, gRPC transport, storage or events, in this
    // process, on the same payloads: each stage the gateway and the evaluation service run on the
    // file contents. What Verdict spends per request beyond these is the rest of the path.
    const { CreateEvaluationSchema } = await importBuilt("services/gateway/dist/http/schemas.js");
    const { encodeEvaluationBody } = await importBuilt("services/gateway/dist/http/evaluationWire.js");
    const { evaluationV1 } = await importBuilt("libs/proto/dist/index.js");
    const rpc = evaluationV1.EvaluationServiceService.createEvaluation;
    const parsed = payloads.map((p) => CreateEvaluationSchema.parse(JSON.parse(p.body.toString("utf8"))));
    const stagePerRequest = (fn) =>
      (warmMedian(() => {
        for (let i = 0; i < ENGINE_PASSES; i++) payloads.forEach((p, j) => fn(p, j));
      }).seconds *
        1e3) /
      (ENGINE_PASSES * PAYLOADS);
    // What the gateway does with a valid body (http/bodies.ts), and what the service decodes.
    const encode = (body) => {
      const { bytes } = encodeEvaluationBody("org_bench", body);
      return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    };
    const encoded = parsed.map(encode);
    const stages = [
      ["JSON: UTF-8 decode and parse of the body", stagePerRequest((p) => JSON.parse(p.body.toString("utf8")))],
      ["request schema validation (zod)", stagePerRequest((_, j) => CreateEvaluationSchema.parse(parsed[j]))],
      ["file contents to bytes, protobuf encode", stagePerRequest((_, j) => encode(parsed[j]))],
      ["protobuf decode", stagePerRequest((_, j) => rpc.requestDeserialize(encoded[j]))],
      ["engine (matching)", (inProcess.seconds * 1e3) / (ENGINE_PASSES * PAYLOADS)],
    ];

    const apiRate = api.bytes / api.seconds;
    const engineRate = (ENGINE_PASSES * passBytes) / inProcess.seconds;
    const perPass = (passBytes / PAYLOADS) | 0;
    print("Verdict API benchmark");
    print(`  target     ${url}${instance ? " (all-in-one started by this script, dedicated organization)" : ""}`);
    print(
      `  payloads   ${PAYLOADS} distinct, ${FILES_PER_PAYLOAD} files each, ${fmtInt(perPass)} bytes on average; ${CONCURRENCY} concurrent clients, ${DURATION_MS / 1e3} s or ${MAX_REQUESTS} requests`,
    );
    print(`  policies   ${policies.length} built-in (${patternCount(policies)} rules), the organization's settings`);
    print(
      `  timing     API: the whole run; engine: 1 warm-up + median of 3 runs of ${ENGINE_PASSES} passes over the payloads; MB = 10^6 bytes\n`,
    );
    printTable([
      ["", "MB/s", "req/s", "p50 ms", "p99 ms", "requests", "findings / pass"],
      [
        "API (POST /v1/evaluations)",
        fmtRate(apiRate),
        (api.latencies.length / api.seconds).toFixed(1),
        percentile(api.latencies, 50).toFixed(1),
        percentile(api.latencies, 99).toFixed(1),
        fmtInt(api.latencies.length),
        fmtInt(apiFindings),
      ],
      [
        "engine in-process, 1 thread",
        fmtRate(engineRate),
        ((ENGINE_PASSES * PAYLOADS) / inProcess.seconds).toFixed(1),
        "",
        "",
        "",
        fmtInt(inProcess.result),
      ],
    ]);
    print();
    print(`  API / engine   ${ratioLine(apiRate / engineRate, TARGET_VS_ENGINE)}`);
    print();
    // CPU time per request: the instance's from /proc (all its threads: the gateway's, the
    // services', V8's garbage collector helpers), the stages above measured here on one thread.
    const ms = (v) => `${v.toFixed(2)} ms`;
    const staged = stages.reduce((n, [, v]) => n + v, 0);
    const rows = [
      ["CPU time per request", "ms"],
      ...stages.map(([name, v]) => [`  ${name}`, ms(v)]),
      ["  sum of these stages, one thread", ms(staged)],
    ];
    if (api.cpu.instance !== undefined) {
      const verdict = (api.cpu.instance * 1e3) / api.latencies.length;
      rows.push(
        ["Verdict under load, all threads (/proc)", ms(verdict)],
        ["  beyond the stages: HTTP, gRPC, storage, events, logs, GC", ms(verdict - staged)],
      );
    }
    rows.push(["load generator (this process)", ms((api.cpu.client * 1e3) / api.latencies.length)]);
    printTable(rows);
    print();
    print(`  peak RSS       ${peakRss()} (this process)`);
  } finally {
    await instance?.stop();
  }
}

main().catch((err) => {
  process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
  process.exitCode = 1;
});
