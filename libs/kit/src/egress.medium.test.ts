// The outbound guard against real servers on the loopback interface: which addresses it lets
// through (an allowlist of private ones), redirects checked like the first request, the size cap
// while the body streams and one deadline that covers the body. Webhooks' own cases (names that
// resolve to private addresses, mixed answers, IP literals) are in services/webhooks/src/egress.medium.test.ts.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { Egress, EgressError, REFUSED_MESSAGE } from "./egress.js";

let server: Server;
let base = "";
let hits = 0;
let bodyClosed = false;

beforeAll(async () => {
  server = createServer((req, res) => {
    hits++;
    if (req.url === "/to-private") return void res.writeHead(302, { location: "http://127.0.0.2:1/x" }).end();
    if (req.url === "/to-ok") return void res.writeHead(302, { location: "/ok" }).end();
    if (req.url === "/large") return void res.end(Buffer.alloc(5 * 1024 * 1024, "a"));
    if (req.url === "/endless") {
      // No Content-Length: the cap must hold while it streams.
      bodyClosed = false;
      res.on("close", () => (bodyClosed = true));
      const chunk = Buffer.alloc(64 * 1024, "b");
      const pump = () => {
        while (!res.destroyed && res.write(chunk));
        if (!res.destroyed) res.once("drain", pump);
      };
      return pump();
    }
    if (req.url === "/drip") {
      // Answers at once, then a byte every 100 ms, forever.
      res.writeHead(200);
      const t = setInterval(() => res.write("."), 100);
      res.on("close", () => clearInterval(t));
      return;
    }
    res.end("ok");
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

const failure = async (p: Promise<unknown>) => {
  try {
    await p;
  } catch (err) {
    if (err instanceof EgressError) return { reason: err.reason, message: err.message };
    throw err;
  }
  throw new Error("expected a failure");
};

describe("Egress", () => {
  const allowed = new Egress({ allowPrivate: ["127.0.0.1/32"] });
  const limits = { timeoutMs: 2_000, maxResponseBytes: 64 * 1024 };

  it("refuses private addresses by default, and lets through only the listed ones", async () => {
    const before = hits;
    expect(await failure(new Egress({ allowPrivate: false }).request({ url: `${base}/ok`, ...limits }))).toEqual({
      reason: "refused",
      message: REFUSED_MESSAGE,
    });
    expect(hits).toBe(before);
    const res = await allowed.request({ url: `${base}/ok`, ...limits });
    expect({ status: res.status, body: res.body.toString() }).toEqual({ status: 200, body: "ok" });
    expect(allowed.allows("127.0.0.2")).toBe(false);
    expect(allowed.allows("10.0.0.1")).toBe(false);
    expect(allowed.allows("93.184.216.34")).toBe(true);
  });

  it("checks every redirect like the first request", async () => {
    expect((await allowed.request({ url: `${base}/to-ok`, ...limits, maxRedirects: 3 })).body.toString()).toBe("ok");
    expect((await failure(allowed.request({ url: `${base}/to-private`, ...limits, maxRedirects: 3 }))).reason).toBe(
      "refused",
    );
    // Without redirects allowed, the 3xx is the answer.
    expect((await allowed.request({ url: `${base}/to-private`, ...limits })).status).toBe(302);
  });

  it("refuses an answer over the cap, declared or streamed, and stops reading it", async () => {
    expect((await failure(allowed.request({ url: `${base}/large`, ...limits }))).reason).toBe("too_large");
    expect((await failure(allowed.request({ url: `${base}/endless`, ...limits }))).reason).toBe("too_large");
    for (let i = 0; i < 50 && !bodyClosed; i++) await new Promise((r) => setTimeout(r, 20));
    expect(bodyClosed).toBe(true);
    const cut = await allowed.request({ url: `${base}/large`, ...limits, oversize: "truncate" });
    expect({ status: cut.status, length: cut.body.length, truncated: cut.truncated }).toEqual({
      status: 200,
      length: 64 * 1024,
      truncated: true,
    });
  });

  it("keeps one deadline for the whole answer, body included", async () => {
    const started = Date.now();
    expect(
      (await failure(allowed.request({ url: `${base}/drip`, timeoutMs: 500, maxResponseBytes: 1024 }))).reason,
    ).toBe("timeout");
    expect(Date.now() - started).toBeLessThan(1_500);
  });

  it("serves as a fetch function (openid-client's customFetch)", async () => {
    const fetch = allowed.fetcher(limits);
    const res = await fetch(`${base}/ok`, { method: "GET", headers: { accept: "text/plain" } });
    expect({ status: res.status, body: await res.text() }).toEqual({ status: 200, body: "ok" });
    expect((await fetch(`${base}/to-ok`, { redirect: "manual" })).status).toBe(302);
    await expect(new Egress({ allowPrivate: false }).fetcher(limits)(`${base}/ok`, {})).rejects.toThrow(EgressError);
  });
});
