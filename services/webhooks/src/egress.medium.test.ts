// The HTTP egress against real servers on 127.0.0.1. Names that should resolve to private
// addresses are resolved by a test resolver, so nothing here ever leaves the loopback interface.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { HttpSender, REFUSED_MESSAGE, type Resolver } from "./egress.js";

let server: Server;
let port: number;
let connections = 0;
const hits: string[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    hits.push(req.url ?? "");
    req.resume();
    if (req.url === "/redirect") return void res.writeHead(302, { location: `http://127.0.0.1:${port}/ok` }).end();
    if (req.url === "/slow") return void setTimeout(() => res.end("late"), 1_500);
    if (req.url === "/big") return void res.end("x".repeat(1_000_000));
    if (req.url === "/busy") return void res.writeHead(503, { "retry-after": "120" }).end("busy");
    res.end("ok");
  });
  server.on("connection", () => connections++);
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

const message = (url: string) => ({ url, headers: { "webhook-id": "msg_1" }, body: "{}" });
/** Resolves every name to one address, and counts the questions. */
const resolverTo = (address: string, family = 4): Resolver & { asked: string[] } => {
  const asked: string[] = [];
  return {
    asked,
    lookup: async (host: string) => {
      asked.push(host);
      return [{ address, family }];
    },
  };
};

describe("HTTP egress", () => {
  const open = new HttpSender({ allowPrivate: true, timeoutMs: 1_000 });

  it("posts and reads the status and an excerpt of the answer", async () => {
    const res = await open.send(message(`http://127.0.0.1:${port}/ok`));
    expect(res).toMatchObject({ statusCode: 200, excerpt: "ok" });
    expect(res.latencyMs).toBeGreaterThanOrEqual(0);
  });

  it("does not follow redirects", async () => {
    const before = hits.length;
    expect((await open.send(message(`http://127.0.0.1:${port}/redirect`))).statusCode).toBe(302);
    expect(hits.slice(before)).toEqual(["/redirect"]);
  });

  it("gives up at the deadline", async () => {
    const res = await open.send(message(`http://127.0.0.1:${port}/slow`));
    expect(res.error).toBe("timed out after 1000 ms");
    expect(res.statusCode).toBeUndefined();
  });

  it("reads at most the response cap and keeps a 1 KiB excerpt", async () => {
    const res = await new HttpSender({ allowPrivate: true, timeoutMs: 2_000, maxResponseBytes: 4096 }).send(
      message(`http://127.0.0.1:${port}/big`),
    );
    expect(res.statusCode).toBe(200);
    expect(res.excerpt).toHaveLength(1024);
  });

  it("reports Retry-After", async () => {
    expect(await open.send(message(`http://127.0.0.1:${port}/busy`))).toMatchObject({
      statusCode: 503,
      retryAfter: "120",
      excerpt: "busy",
    });
  });

  it("reports connection errors", async () => {
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, "127.0.0.1", () => r()));
    const freePort = (closed.address() as AddressInfo).port;
    await new Promise<void>((r) => closed.close(() => r()));
    expect((await open.send(message(`http://127.0.0.1:${freePort}/`))).error).toBe("connection failed: ECONNREFUSED");
  });
});

describe("SSRF protection at connect time", () => {
  it("refuses a name that resolves to a loopback address, before connecting", async () => {
    const resolver = resolverTo("127.0.0.1");
    const before = connections;
    const res = await new HttpSender({ allowPrivate: false, timeoutMs: 1_000, resolver }).send(
      message(`http://rebind.test:${port}/ok`),
    );
    expect(res.error).toBe(REFUSED_MESSAGE);
    expect(resolver.asked).toEqual(["rebind.test"]);
    // our server really listens there, and saw nothing
    expect(connections).toBe(before);
  });

  it("refuses a name that resolves to 10.x", async () => {
    const resolver = resolverTo("10.20.30.40");
    const res = await new HttpSender({ allowPrivate: false, timeoutMs: 1_000, resolver }).send(
      message("https://internal.test/hook"),
    );
    expect(res).toMatchObject({ error: REFUSED_MESSAGE });
    expect(res.statusCode).toBeUndefined();
    expect(resolver.asked).toEqual(["internal.test"]);
  });

  it("refuses when any of the answers is private (a mixed answer cannot sneak through)", async () => {
    const resolver: Resolver = {
      lookup: async () => [
        { address: "93.184.216.34", family: 4 },
        { address: "169.254.169.254", family: 4 },
      ],
    };
    expect(
      await new HttpSender({ allowPrivate: false, timeoutMs: 1_000, resolver }).send(message("https://mixed.test/")),
    ).toMatchObject({ error: REFUSED_MESSAGE });
  });

  it("refuses IP literals: loopback, metadata, IPv6 loopback, without a lookup", async () => {
    const resolver = resolverTo("93.184.216.34");
    const sender = new HttpSender({ allowPrivate: false, timeoutMs: 1_000, resolver });
    const before = connections;
    for (const url of [
      `http://127.0.0.1:${port}/ok`,
      "http://169.254.169.254/latest/meta-data/",
      `http://[::1]:${port}/`,
      `http://[::ffff:127.0.0.1]:${port}/`,
    ]) {
      expect((await sender.send(message(url))).error).toBe(REFUSED_MESSAGE);
    }
    expect(resolver.asked).toEqual([]);
    expect(connections).toBe(before);
  });

  it("lets everything through when private targets are allowed (development)", async () => {
    const res = await new HttpSender({ allowPrivate: true, timeoutMs: 1_000, resolver: resolverTo("127.0.0.1") }).send(
      message(`http://dev.test:${port}/ok`),
    );
    expect(res.statusCode).toBe(200);
  });
});
