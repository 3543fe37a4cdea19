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
