// verdict mcp: Verdict's tools for an AI assistant, over MCP's stdio transport. stdout belongs
// to the protocol; nothing else may be printed there.
import type { Command } from "commander";
import type { Context } from "../context.js";
import { VERSION } from "../version.js";

export function mcpCommand(program: Command, ctx: Context): void {
  program
    .command("mcp")
    .description(
      "Serve Verdict's tools to an MCP client over stdio (uses VERDICT_URL / VERDICT_API_KEY or the stored login)",
    )
    .action(async () => {
      // Loaded here, not at start-up: every other command starts faster without the MCP SDK.
      const [{ StdioServerTransport }, { createVerdictMcpServer }] = await Promise.all([
        import("@modelcontextprotocol/sdk/server/stdio.js"),
        import("@verdict/mcp-tools"),
      ]);
      const server = createVerdictMcpServer(ctx.client(), VERSION);
      await server.connect(new StdioServerTransport());
      ctx.io.stderr.write(`verdict mcp: serving over stdio (Verdict at ${ctx.client().baseUrl})\n`);
    });
}
