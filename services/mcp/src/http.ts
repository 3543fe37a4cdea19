// MCP's Streamable HTTP transport, stateless: every POST /mcp gets a fresh server whose tools
// call Verdict with the caller's own API key (Authorization: Bearer …), checked before anything
// else, so the service holds no credential of its own and scopes apply as on the REST API.
import express, { type Request, type Response } from "express";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { VerdictApiError, VerdictClient } from "@verdict/sdk";
import { createVerdictMcpServer, type ToolOptions } from "@verdict/mcp-tools";
import type { Logger } from "@verdict/kit";

export interface McpAppOptions {
  apiUrl: string;
  version: string;
  logger: Logger;
  tools?: ToolOptions;
}

function rpcError(
  res: Response,
  status: number,
  code: number,
  message: string,
  headers: Record<string, string> = {},
): void {
  res.status(status).set(headers).json({ jsonrpc: "2.0", error: { code, message }, id: null });
}

function bearer(req: Request): string | undefined {
  const m = /^Bearer\s+(\S+)$/i.exec(req.header("authorization") ?? "");
  return m?.[1];
}

export function createMcpApp(opts: McpAppOptions): express.Express {
  const app = express();
  app.disable("x-powered-by");
  app.use(express.json({ limit: "32mb" }));

  app.get("/health", (_req, res) => {
    res.json({ status: "healthy", version: opts.version });
  });

  app.post("/mcp", async (req, res) => {
    const key = bearer(req);
    const challenge = { "WWW-Authenticate": 'Bearer realm="verdict"' };
    if (!key) return rpcError(res, 401, -32001, "Authorization: Bearer <Verdict API key> is required", challenge);
    const client = new VerdictClient({ baseUrl: opts.apiUrl, apiKey: key, userAgent: `verdict-mcp/${opts.version}` });
    try {
      await client.verifyKey();
    } catch (err) {
      if (err instanceof VerdictApiError && err.status === 401)
        return rpcError(res, 401, -32001, `${err.message} [${err.code}]`, challenge);
      if (err instanceof VerdictApiError && err.status === 403)
        return rpcError(res, 403, -32001, `${err.message} [${err.code}]`);
      opts.logger.error({ err: { message: (err as Error).message } }, "cannot reach the Verdict API");
      return rpcError(res, 503, -32603, "the Verdict API is unavailable");
    }
    const server = createVerdictMcpServer(client, opts.version, opts.tools);
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    res.on("close", () => {
      void transport.close();
      void server.close();
    });
    try {
      await server.connect(transport);
      await transport.handleRequest(req, res, req.body);
    } catch (err) {
      opts.logger.error({ err: { message: (err as Error).message } }, "MCP request failed");
      if (!res.headersSent) rpcError(res, 500, -32603, "internal error");
    }
  });

  // Stateless: no server-initiated stream (GET) and no session to end (DELETE).
  const notAllowed = (_req: Request, res: Response) =>
    rpcError(res, 405, -32000, "Method not allowed: this server is stateless; POST /mcp", { Allow: "POST" });
  app.get("/mcp", notAllowed);
  app.delete("/mcp", notAllowed);
  return app;
}
