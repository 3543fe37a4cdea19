import { z } from "zod";
import { portVar } from "@verdict/kit";
import { HTTP_PORT, MCP_PORT, processConfig, documentVariables } from "@verdict/runtime";

/** The MCP service's variables (docs/mcp.md). */
export const mcpConfig = processConfig.extend({
  VERDICT_MCP_HOST: z.string().min(1).default("0.0.0.0"),
  VERDICT_MCP_PORT: portVar(MCP_PORT),
  /** The Verdict API the tools call (the gateway), without /v1. */
  VERDICT_API_URL: z.url().default(`http://127.0.0.1:${HTTP_PORT}`),
  /** How long generate_evidence waits for a report before answering `generating`. */
  VERDICT_MCP_REPORT_TIMEOUT_MS: z.coerce.number().int().positive().default(120_000),
});

documentVariables({
  VERDICT_API_URL: "The Verdict API (gateway) the MCP tools call, without `/v1`",
  VERDICT_MCP_HOST: "Address the MCP tool server listens on",
  VERDICT_MCP_PORT: "Port of the MCP tool server (0 picks a free one)",
  VERDICT_MCP_REPORT_TIMEOUT_MS: "How long `generate_evidence` waits before answering `generating`",
});
