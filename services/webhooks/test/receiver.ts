// A real HTTP receiver on 127.0.0.1 that verifies every message with the standardwebhooks
// library (what a user's receiver would do) and answers what the test tells it to.
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";

export interface Received {
  headers: IncomingHttpHeaders;
  body: string;
  json: { event: string; data: any; id: string; timestamp: string };
  verified: boolean;
  verifyError?: string;
}

export type Responder = (n: number, r: Received) => { status: number; headers?: Record<string, string>; body?: string };

export interface Receiver {
  url: string;
  port: number;
  received: Received[];
  /** TCP connections accepted (a refused target must see none). */
  connections: number;
  respond: Responder;
  secret?: string;
  close(): Promise<void>;
}

export async function startReceiver(respond: Responder = () => ({ status: 200, body: "ok" })): Promise<Receiver> {
  const r: Receiver = {
    url: "",
    port: 0,
    received: [],
    connections: 0,
    respond,
    close: () => new Promise((res) => server.close(() => res())),
  };
  const server: Server = createServer((req, res) => {
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (d: string) => (body += d));
    req.on("end", () => {
      let verified = false;
      let verifyError: string | undefined;
      try {
        if (r.secret) {
          new Webhook(r.secret).verify(body, req.headers as Record<string, string>);
          verified = true;
        }
      } catch (err) {
        verifyError = (err as Error).message;
      }
      const rec: Received = {
        headers: req.headers,
        body,
        json: JSON.parse(body),
        verified,
        ...(verifyError ? { verifyError } : {}),
      };
      r.received.push(rec);
      const out = r.respond(r.received.length, rec);
      res.writeHead(out.status, out.headers ?? {});
      res.end(out.body ?? "");
    });
  });
  server.on("connection", () => r.connections++);
  await new Promise<void>((res) => server.listen(0, "127.0.0.1", () => res()));
  r.port = (server.address() as AddressInfo).port;
  r.url = `http://127.0.0.1:${r.port}/hooks/verdict`;
  return r;
}
