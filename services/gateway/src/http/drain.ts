// Graceful shutdown of an HTTP/1.1 server without losing a request a client sends on a
// keep-alive connection it just reused.
//
// http.Server#close (Node ≥ 19) and #closeIdleConnections destroy every idle keep-alive socket at
// once. A client that picked such a socket a moment earlier has its request cut ("fetch failed",
// "socket hang up"): it cannot know the server was about to close it. The one moment a client
// knows is the keep-alive timeout the server advertised (`Keep-Alive: timeout=N`): well-behaved
// clients stop reusing an idle socket before it (undici: N minus 2 s), and Node itself closes an
// idle socket only keepAliveTimeout + keepAliveTimeoutBuffer after its last response. So a drain:
// - stops accepting connections (net.Server#close, which leaves open sockets alone);
// - answers every request still to be answered, in flight or newly arriving on an open socket,
//   with `Connection: close`, so its socket closes once the response is sent;
// - leaves idle sockets to their advertised keep-alive timeout (the client closes them, or Node);
// - cuts whatever is left when the grace ends.
import { Server as NetServer } from "node:net";
import type { IncomingMessage, Server, ServerResponse } from "node:http";

export interface Drainer {
  /** Call first in the server's request listener: marks the response to close its connection when draining. */
  track(req: IncomingMessage, res: ServerResponse): void;
  /** Drains as above; resolves once every connection is closed (at the latest when graceMs ends). */
  drain(graceMs: number): Promise<void>;
  readonly draining: boolean;
}

export function drainer(server: Server): Drainer {
  let draining = false;
  const pending = new Set<ServerResponse>();
  const closeAfter = (res: ServerResponse) => {
    if (!res.headersSent) res.setHeader("Connection", "close");
  };
  return {
    get draining() {
      return draining;
    },
    track(_req, res) {
      if (draining) {
        closeAfter(res);
        return;
      }
      pending.add(res);
      res.once("close", () => pending.delete(res));
    },
    async drain(graceMs) {
      draining = true;
      for (const res of pending) closeAfter(res);
      pending.clear();
      const closed = new Promise<void>((resolve) => {
        // The net.Server close: stop listening, call back once the last connection has closed.
        NetServer.prototype.close.call(server, () => resolve());
      });
      const timer = setTimeout(() => server.closeAllConnections(), graceMs);
      await closed;
      clearTimeout(timer);
      // Now http.Server#close has nothing left to cut; it stops the server's connection
      // checking interval (slow-client timeouts). Its callback only reports "not running".
      server.close(() => undefined);
    },
  };
}
