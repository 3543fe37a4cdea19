import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { VerdictClient } from "@verdict/sdk";
import { registerVerdictTools, type ToolOptions } from "./tools.js";

/** An MCP server with Verdict's tools over `client` (connect it to any transport). */
export function createVerdictMcpServer(client: VerdictClient, version: string, opts: ToolOptions = {}): McpServer {
  const server = new McpServer(
    { name: "verdict", title: "Verdict", version },
    {
      instructions:
        "Verdict checks code against security and compliance policies. Call evaluate_files on code you wrote or changed before proposing it; use the compliance tools for audit questions.",
    },
  );
  registerVerdictTools(server, client, opts);
  return server;
}
