#!/usr/bin/env node
// The image's HEALTHCHECK. One image runs every service, so the check reads which one runs as
// PID 1's child (the container's command, after tini) and asks it the way an orchestrator
// would: GET /v1/health (all-in-one, gateway), GET /health (MCP), or the standard gRPC health
// check on the service's port. Exit 0: healthy; 1: not.
/* global process, fetch, AbortSignal */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

const command = readFileSync("/proc/1/cmdline", "utf8").split("\0").filter(Boolean);
const service = command.find((arg) => arg === "all-in-one" || arg.startsWith("verdict-")) ?? "all-in-one";
const env = process.env;
const grpcPorts = {
  "verdict-identity": 50051,
  "verdict-policy": 50052,
  "verdict-evaluation": 50053,
  "verdict-compliance": 50054,
  "verdict-webhooks": 50055,
  "verdict-integrations": 50056,
};

async function http(port, path) {
  const res = await fetch(`http://127.0.0.1:${port}${path}`, { signal: AbortSignal.timeout(4000) });
  if (!res.ok) throw new Error(`${path} answered ${res.status}`);
}

async function grpcHealth(port) {
  const require = createRequire(import.meta.url);
  const grpc = await import("@grpc/grpc-js");
  const { loadSync } = await import("@grpc/proto-loader");
  const proto = join(dirname(require.resolve("grpc-health-check/package.json")), "proto/health/v1/health.proto");
  const Health = grpc.loadPackageDefinition(loadSync(proto, { keepCase: true, enums: String })).grpc.health.v1.Health;
  const client = new Health(`127.0.0.1:${port}`, grpc.credentials.createInsecure());
  const status = await new Promise((resolve, reject) =>
    client.Check({ service: "" }, { deadline: Date.now() + 4000 }, (err, res) =>
      err ? reject(err) : resolve(res.status),
    ),
  );
  client.close();
  if (status !== "SERVING") throw new Error(`gRPC health: ${status}`);
}

try {
  if (service === "all-in-one" || service === "verdict-gateway")
    await http(env.VERDICT_HTTP_PORT || 8080, "/v1/health");
  else if (service === "verdict-mcp") await http(env.VERDICT_MCP_PORT || 8090, "/health");
  else await grpcHealth(env.VERDICT_GRPC_PORT || grpcPorts[service]);
  process.exit(0);
} catch (err) {
  process.stderr.write(`${service} unhealthy: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
}
