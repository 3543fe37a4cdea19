// The gateway's drain over real HTTP/1.1: a client that keeps reusing one keep-alive connection
// through a shutdown never has a request cut.
import { describe, expect, it } from "@jest/globals";
import { Agent, createServer, request, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { drainer, type Drainer } from "./drain.js";

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
  socket: Socket;
}

function get(port: number, agent: Agent, path = "/"): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request({ host: "127.0.0.1", port, path, agent }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (c: string) => (body += c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body, socket: req.socket! }));
    });
    req.on("error", reject);
    req.end();
  });
}

const closedOf = (socket: Socket) => new Promise<void>((r) => (socket.closed ? r() : socket.once("close", () => r())));

// A server like the gateway's: the drainer sees every request first; "/slow" answers when told.
async function serve(): Promise<{ server: Server; drain: Drainer; port: number; release: () => void }> {
  let release: () => void = () => undefined;
  const held = new Promise<void>((r) => (release = r));
  const server = createServer((req, res) => {
    drain.track(req, res);
    if (req.url === "/slow") void held.then(() => res.end("slow"));
    else res.end("ok");
  });
  server.keepAliveTimeout = 5_000;
  const drain = drainer(server);
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return { server, drain, port: (server.address() as AddressInfo).port, release };
}

describe("gateway drain", () => {
  it("answers requests a client sends on a reused keep-alive connection during the drain, then closes it", async () => {
    const { drain, port } = await serve();
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const first = await get(port, agent);
    expect(first.headers.connection).toBe("keep-alive");
    // The drain starts while the client holds the idle connection; the client reuses it at once.
    const drained = drain.drain(10_000);
    const during = await get(port, agent);
    expect(during).toMatchObject({ status: 200, body: "ok" });
    expect(during.socket).toBe(first.socket);
    expect(during.headers.connection).toBe("close");
    // That was the connection's last answer: the server closes it, and with it the drain is done.
    await drained;
    await closedOf(during.socket);
    agent.destroy();
  });

  it("many reuses racing the start of the drain: none is cut", async () => {
    for (let round = 0; round < 25; round++) {
      const { drain, port } = await serve();
      const agent = new Agent({ keepAlive: true, maxSockets: 4 });
      await Promise.all([get(port, agent), get(port, agent), get(port, agent), get(port, agent)]);
      const answers = Promise.all([1, 2, 3, 4].map(() => get(port, agent)));
      const drained = drain.drain(10_000);
      const got = await answers;
      expect(got.map((a) => a.status)).toEqual([200, 200, 200, 200]);
      await drained;
      agent.destroy();
    }
  });

  it("an in-flight request finishes with Connection: close, and no new connection is accepted", async () => {
    const { drain, port, release } = await serve();
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const slow = get(port, agent, "/slow");
    await new Promise((r) => setTimeout(r, 50));
    const drained = drain.drain(10_000);
    await expect(get(port, new Agent({ keepAlive: false }))).rejects.toMatchObject({ code: "ECONNREFUSED" });
    release();
    const answer = await slow;
    expect(answer).toMatchObject({ status: 200, body: "slow" });
    expect(answer.headers.connection).toBe("close");
    await drained;
    agent.destroy();
  });

  it("an idle connection the client keeps is left to its keep-alive timeout, and cut when the grace ends first", async () => {
    const { drain, port } = await serve();
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const first = await get(port, agent);
    const closed = closedOf(first.socket);
    // A grace shorter than the 5 s keep-alive timeout: the drain ends with the grace.
    const drained = drain.drain(300);
    await new Promise((r) => setTimeout(r, 50));
    expect(first.socket.destroyed).toBe(false);
    await drained;
    await closed;
    expect(first.socket.destroyed).toBe(true);
    agent.destroy();
  });
});
