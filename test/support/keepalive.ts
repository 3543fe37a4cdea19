// The test process's side of a server drain. fetch() keeps connections alive (undici's global
// Agent) and reuses an idle one for up to the server's advertised keep-alive timeout minus 2 s.
// A draining gateway leaves idle connections to that timeout rather than cutting one a client may
// be reusing that moment (services/gateway/src/http/drain.ts), so stopping a Verdict the suite just
// talked to would wait ~3 s for fetch to let go. Before a harness stops a Verdict it hangs up
// fetch's idle connections, as a client that is done does: new requests open new connections,
// requests in flight finish first.
const GLOBAL_DISPATCHER = Symbol.for("undici.globalDispatcher.1");

interface Dispatcher {
  close(): Promise<void>;
  constructor: new () => Dispatcher;
}

export function hangUpIdleConnections(): void {
  const g = globalThis as unknown as Record<symbol, Dispatcher | undefined>;
  const current = g[GLOBAL_DISPATCHER];
  if (!current) return;
  // A fresh Agent of the same class for what follows; the old one closes once its requests end.
  g[GLOBAL_DISPATCHER] = new current.constructor();
  void current.close().catch(() => undefined);
}

/**
 * The opposite, for tests of shutdown: a client that keeps a keep-alive connection to `url` open
 * and idle after one request, so a draining gateway waits out its keep-alive timeout (~6 s).
 * Returns the function that hangs up.
 */
export async function holdIdleConnection(url: string): Promise<() => void> {
  const { connect } = await import("node:net");
  const { hostname, port } = new URL(url);
  const socket = connect({ host: hostname, port: Number(port) });
  await new Promise<void>((resolve, reject) => {
    socket.once("error", reject);
    socket.once("connect", () => {
      socket.write(`GET /v1/health HTTP/1.1\r\nHost: ${hostname}\r\nConnection: keep-alive\r\n\r\n`);
    });
    // The response's first bytes: the request was served and the connection is now idle.
    socket.once("data", () => resolve());
  });
  socket.on("error", () => undefined);
  return () => socket.destroy();
}
