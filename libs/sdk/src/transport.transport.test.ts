import { once } from "node:events";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { exchange } from "./transport.js";

describe("exchange", () => {
  const received: { length: string | undefined; body: Buffer }[] = [];
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      received.push({ length: req.headers["content-length"], body: Buffer.concat(chunks) });
      res.setHeader("X-RateLimit-Remaining", "7");
      res.setHeader("Set-Cookie", ["a=1", "b=2"]);
      res.end("ok");
    });
  });
  let url: URL;
  beforeAll(async () => {
    server.listen(0, "127.0.0.1");
    await once(server, "listening");
    url = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/evaluations`);
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it("sends a body given as chunks as one body, with their total length", async () => {
    const chunks = [Buffer.from('{"files":['), Buffer.from('"日本"'), Buffer.alloc(0), Buffer.from("]}")];
    const res = await exchange(url, "POST", { "content-type": "application/json" }, chunks, 10_000);
    expect(res.status).toBe(200);
    expect(res.body.toString()).toBe("ok");
    const got = received.at(-1)!;
    expect(got.body.toString("utf8")).toBe('{"files":["日本"]}');
    expect(got.length).toBe(String(Buffer.concat(chunks).length));
  });

  it("reads response headers by name in any case, repeated ones joined as fetch's Headers does", async () => {
    const res = await exchange(url, "GET", {}, undefined, 10_000);
    expect(res.headers.get("x-ratelimit-remaining")).toBe("7");
    expect(res.headers.get("X-RateLimit-Remaining")).toBe("7");
    expect(res.headers.get("set-cookie")).toBe("a=1, b=2");
    expect(res.headers.get("retry-after")).toBeNull();
  });
});
