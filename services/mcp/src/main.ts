import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Logger } from "@verdict/kit";
import type { ToolOptions } from "@verdict/mcp-tools";
import { createMcpApp } from "./http.js";

export interface McpServiceOptions {
  host: string;
  port: number;
  apiUrl: string;
  version: string;
  logger: Logger;
  tools?: ToolOptions;
}

export interface McpService {
  port: number;
  stop(): Promise<void>;
}

/** Serves MCP over Streamable HTTP at /mcp (and /health). */
export async function startMcpService(opts: McpServiceOptions): Promise<McpService> {
  const app = createMcpApp(opts);
  const server: Server = await new Promise((ok, fail) => {
    const s = app.listen(opts.port, opts.host, (err?: Error) => (err ? fail(err) : ok(s)));
  });
  return {
    port: (server.address() as AddressInfo).port,
    stop: () =>
      new Promise<void>((ok) => {
        server.close(() => ok());
        server.closeAllConnections();
      }),
  };
}
