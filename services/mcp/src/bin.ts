#!/usr/bin/env node
// The MCP tool server for deployments: Streamable HTTP at /mcp, calling the Verdict API at
// VERDICT_API_URL with each caller's own key.
import { createRequire } from "node:module";
import { runProcess } from "@verdict/runtime";
import { mcpConfig } from "./config.js";
import { startMcpService } from "./main.js";

const { version } = createRequire(import.meta.url)("../package.json") as { version: string };

runProcess(
  "mcp",
  mcpConfig,
  async ({ config, logger }) => {
    const service = await startMcpService({
      host: config.VERDICT_MCP_HOST,
      port: config.VERDICT_MCP_PORT,
      apiUrl: config.VERDICT_API_URL,
      version,
      logger,
      tools: { reportTimeoutMs: config.VERDICT_MCP_REPORT_TIMEOUT_MS },
    });
    return { ready: { http_port: service.port, api_url: config.VERDICT_API_URL }, stop: () => service.stop() };
    // The tools only call the REST API: no events, so no bus (and no Kafka connection).
  },
  { bus: false },
);
