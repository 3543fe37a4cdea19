// One HTTP exchange over node:http(s) with kept-alive connections. Not fetch: for the request
// bodies of many megabytes the CLI sends, fetch's web streams cost several times the CPU of
// writing the bytes to the socket, and the CLI shares the machine with the server it calls.
//
// node:http(s) are loaded with require, and responses' headers are not a fetch Headers: importing
// node:http as an ES module builds its module namespace from every export, which loads Node's
// bundled undici (fetch, WebSocket) through a lazy getter, as `new Headers()` does: about 50 ms of
// CPU at every CLI start for code it never runs. node:https (TLS, crypto: about 15 ms more) is
// loaded at the first https request only.
import type * as Http from "node:http";
import type * as Https from "node:https";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);

/** A response's headers, read by name (any case), as fetch's Headers.get reads them. */
export interface HeaderReader {
  get(name: string): string | null;
}

export interface HttpAnswer {
  status: number;
  headers: HeaderReader;
  body: Buffer;
}

// Idle kept-alive sockets are unreferenced by the agent: they never hold a process open. Both
// agents are made at the first request, so that loading this module opens nothing (the single
// executable's start-up snapshot is taken after loading it).
let plain: { agent: Http.Agent; request: typeof Http.request } | undefined;
function http(): { agent: Http.Agent; request: typeof Http.request } {
  if (!plain) {
    const { Agent, request } = require("node:http") as typeof Http;
    plain = { agent: new Agent({ keepAlive: true }), request };
  }
  return plain;
}
let tls: { agent: Https.Agent; request: typeof Https.request } | undefined;
function https(): { agent: Https.Agent; request: typeof Https.request } {
  if (!tls) {
    const { Agent, request } = require("node:https") as typeof Https;
    tls = { agent: new Agent({ keepAlive: true }), request };
  }
  return tls;
}

/** node:http's headers (lower-case names; repeated ones as arrays) read as Headers.get does: repeated values joined by ", ". */
function headersOf(raw: Http.IncomingHttpHeaders): HeaderReader {
  return {
    get(name: string): string | null {
      const v = raw[name.toLowerCase()];
      return v === undefined ? null : Array.isArray(v) ? v.join(", ") : v;
    },
  };
}

/** Sends one request; rejects with the socket's error (its `code`: ECONNREFUSED, …) or a TimeoutError after `timeoutMs`. */
export function exchange(
  url: URL,
  method: string,
  headers: Record<string, string>,
  body: string | Uint8Array | readonly Uint8Array[] | undefined,
  timeoutMs: number,
): Promise<HttpAnswer> {
  const transport = url.protocol === "https:" ? https() : http();
  const length = (b: string | Uint8Array | readonly Uint8Array[]) =>
    typeof b === "string"
      ? Buffer.byteLength(b)
      : b instanceof Uint8Array
        ? b.byteLength
        : b.reduce((n, c) => n + c.byteLength, 0);
  const all = body === undefined ? headers : { ...headers, "content-length": String(length(body)) };
  return new Promise((resolve, reject) => {
    const req = transport.request(url, { method, headers: all, agent: transport.agent });
    const timer = setTimeout(
      () => req.destroy(Object.assign(new Error("timed out"), { name: "TimeoutError" })),
      timeoutMs,
    );
    const fail = (err: Error) => {
      clearTimeout(timer);
      reject(err);
    };
    req.on("error", fail);
    req.on("response", (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("error", fail);
      res.on("end", () => {
        clearTimeout(timer);
        resolve({ status: res.statusCode ?? 0, headers: headersOf(res.headers), body: Buffer.concat(chunks) });
      });
    });
    if (body === undefined || typeof body === "string" || body instanceof Uint8Array) req.end(body);
    else {
      // Chunks: corked, so they leave in one writev instead of a write per chunk.
      req.cork();
      for (const c of body) req.write(c);
      req.uncork();
      req.end();
    }
  });
}
