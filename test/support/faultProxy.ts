// A reverse proxy in front of a real server (Gitea) that answers chosen requests with a failure
// of our choosing (a 429 with Retry-After, a 503) instead of forwarding them: the provider's own
// faults, on demand, while every other request reaches the real server. It records what passed.
import { createServer, request as httpRequest, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export interface Fault {
  status: number;
  headers?: Record<string, string>;
}

export interface SeenRequest {
  method: string;
  path: string;
  at: number;
  body: string;
  /** The status answered: the injected fault's or the server's. */
  status: number;
}

export interface FaultProxy {
  url: string;
  /** The next requests matching method and path get these answers, one each, in order. */
  fail(method: string, path: RegExp, faults: Fault[]): void;
  seen(method?: string, path?: RegExp): SeenRequest[];
  stop(): Promise<void>;
}

export async function startFaultProxy(target: string): Promise<FaultProxy> {
  const upstream = new URL(target);
  const rules: { method: string; path: RegExp; faults: Fault[] }[] = [];
  const log: SeenRequest[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks);
      const path = req.url ?? "/";
      const entry: SeenRequest = {
        method: req.method ?? "GET",
        path,
        at: Date.now(),
        body: body.toString(),
        status: 0,
      };
      log.push(entry);
      const rule = rules.find((r) => r.method === entry.method && r.path.test(path) && r.faults.length > 0);
      const fault = rule?.faults.shift();
      if (fault) {
        entry.status = fault.status;
        res.writeHead(fault.status, { "content-type": "application/json", ...fault.headers });
        res.end(JSON.stringify({ message: "injected fault" }));
        return;
      }
      const headers: IncomingHttpHeaders = { ...req.headers, host: upstream.host };
      const out = httpRequest(
        { host: upstream.hostname, port: upstream.port, method: entry.method, path, headers, agent: false },
        (answer) => {
          entry.status = answer.statusCode ?? 0;
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      out.on("error", (err) => {
        entry.status = 502;
        res.writeHead(502).end(String(err));
      });
      out.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    fail: (method, path, faults) => rules.push({ method, path, faults: [...faults] }),
    seen: (method, path) => log.filter((r) => (!method || r.method === method) && (!path || path.test(r.path))),
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
