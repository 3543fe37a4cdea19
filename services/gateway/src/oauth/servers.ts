// The authorization servers (oidc-provider) behind /auth/oauth, one per issuer origin, built on
// first use: the issuer needs the public origin, the cookie key comes from identity. Without a
// configured origin, one server per loopback origin the request names (at most the three
// loopback names of the port it arrived on): a Host header is never taken as the issuer for
// anyone else, and any other Host is refused.
import type { NextFunction, Request, Response } from "express";
import { AppError, type Logger } from "@verdict/kit";
import type { Clients } from "../clients.js";
import { createOAuthServer, type OAuthServer } from "./provider.js";
import { auditRevocations } from "./revocations.js";

const LOOPBACK_NAMES = new Set(["localhost", "127.0.0.1", "[::1]"]);

/**
 * The issuer's origin when no public URL is configured: the request's own, but only when its Host
 * names a loopback address (localhost, 127.0.0.1, [::1]) and the port the request arrived on
 * (none for the protocol's default port). Undefined for any other Host: the request could come
 * from anyone, and its Host would otherwise become the issuer other clients are told to trust.
 */
export function loopbackOrigin(
  protocol: string,
  host: string | undefined,
  localPort: number | undefined,
): string | undefined {
  if (!host || !localPort) return undefined;
  const m = /^(localhost|127\.0\.0\.1|\[::1\])(?::(\d{1,5}))?$/i.exec(host);
  if (!m || !LOOPBACK_NAMES.has(m[1]!.toLowerCase())) return undefined;
  const defaultPort = protocol === "https" ? 443 : 80;
  const port = m[2] === undefined ? defaultPort : Number(m[2]);
  if (port !== localPort || (m[2] !== undefined && String(port) !== m[2])) return undefined;
  return `${protocol}://${m[1]!.toLowerCase()}${m[2] === undefined ? "" : `:${port}`}`;
}

export interface OAuthServers {
  /** The server of the request's issuer origin (AUTH_HOST_NOT_ALLOWED for any other Host). */
  serverFor(req: Request): Promise<OAuthServer>;
  /** Hands the request to that server's oidc-provider. */
  handOver(req: Request, res: Response, next: NextFunction): Promise<void>;
  /** Ends the request's interaction with access_denied and this description. */
  finishDenied(req: Request, res: Response, description: string): Promise<void>;
}

export function oauthServers(opts: { origin?: string | undefined; clients: Clients; logger: Logger }): OAuthServers {
  const servers = new Map<string, Promise<OAuthServer>>();
  const serverFor = (req: Request): Promise<OAuthServer> => {
    const origin = opts.origin ?? loopbackOrigin(req.protocol, req.get("host"), req.socket.localPort);
    if (!origin)
      return Promise.reject(
        new AppError(
          "forbidden",
          "AUTH_HOST_NOT_ALLOWED",
          "The authorization server answers only on its public URL: set VERDICT_PUBLIC_URL (without it, only http://localhost, 127.0.0.1 or [::1] on the port it listens on)",
        ),
      );
    let starting = servers.get(origin);
    if (!starting) {
      starting = (async () => {
        const { secret } = await opts.clients.identity.getOAuthServerSecret({});
        const server = createOAuthServer({
          clients: opts.clients,
          logger: opts.logger,
          origin,
          cookieSecret: Buffer.from(secret),
        });
        auditRevocations(server, opts.clients, opts.logger);
        return server;
      })();
      servers.set(origin, starting);
      starting.catch(() => servers.delete(origin));
    }
    return starting;
  };
  return {
    serverFor,
    async handOver(req, res, next) {
      try {
        (await serverFor(req)).provider.callback()(req, res);
      } catch (err) {
        next(err);
      }
    },
    async finishDenied(req, res, description) {
      const { provider } = await serverFor(req);
      await provider.interactionFinished(
        req,
        res,
        { error: "access_denied", error_description: description },
        { mergeWithLastSubmission: false },
      );
    },
  };
}
