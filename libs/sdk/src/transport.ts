// One HTTP exchange over node:http(s) with kept-alive connections. Not fetch: for the request
// bodies of many megabytes the CLI sends, fetch's web streams cost several times the CPU of
// writing the bytes to the socket, and the CLI shares the machine with the server it calls.
import { Agent as HttpAgent, request as httpRequest, type IncomingHttpHeaders } from "node:http";
import { Agent as HttpsAgent, request as httpsRequest } from "node:https";

export interface HttpAnswer {
  status: number;
  headers: Headers;
  body: Buffer;
}

// Idle kept-alive sockets are unreferenced by the agent: they never hold a process open.
const agents = { http: new HttpAgent({ keepAlive: true }), https: new HttpsAgent({ keepAlive: true }) };

function headersOf(raw: IncomingHttpHeaders): Headers {
  const h = new Headers();
  for (const [k, v] of Object.entries(raw)) {
    if (v === undefined) continue;
    if (Array.isArray(v)) v.forEach((x) => h.append(k, x));
    else h.set(k, v);
  }
  return h;
}

/** Sends one request; rejects with the socket's error (its `code`: ECONNREFUSED, …) or a TimeoutError after `timeoutMs`. */
export function exchange(
  url: URL,
  method: string,
  headers: Record<string, string>,
  body: string | Uint8Array | undefined,
  timeoutMs: number,
): Promise<HttpAnswer> {
  const https = url.protocol === "https:";
  const send = https ? httpsRequest : httpRequest;
  const all =
    body === undefined
      ? headers
      : { ...headers, "content-length": String(typeof body === "string" ? Buffer.byteLength(body) : body.byteLength) };
  return new Promise((resolve, reject) => {
    const req = send(url, { method, headers: all, agent: https ? agents.https : agents.http });
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
    req.end(body);
  });
}
