// Wires the gateway: config in, HTTP out. Holds no business state.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { TOPICS } from "@verdict/bus";
import { newId, type Logger } from "@verdict/kit";
import type { Express, RequestHandler } from "express";
import { connectClients, type Clients } from "./clients.js";
import { buildApp } from "./http/app.js";
import { drainer } from "./http/drain.js";
import type { BodyJob, BodyOutcome } from "./http/bodies.js";
import { FairPool, LOW_PRIORITY_NICENESS, workerFile } from "@verdict/runtime";
import { findPortalDir } from "./http/portal.js";
import { Authenticator } from "./http/auth.js";
import type { GatewayOptions } from "./options.js";
import { RateLimiter } from "./http/rateLimit.js";
import { routes } from "./routes/index.js";
import { mountOAuthServer } from "./oauth/routes.js";
import { mountScim } from "./routes/scim.js";
import { mountIntegrationEvents } from "./routes/integrations.js";
import { mountGitHubAppManifestForm } from "./routes/githubApp.js";
import { mountSso } from "./routes/sso.js";
import { publicOrigin } from "./http/restTypes.js";

export interface Gateway {
  port: number;
  server: Server;
  stop(): Promise<void>;
}

/**
 * What the gateway serves outside its route table: the OAuth authorization server, SCIM and the
 * browser legs of SSO. One function, so the OpenAPI test inspects exactly what is served.
 */
export function mountOutsideRouteTable(
  app: Express,
  throttle: RequestHandler,
  deps: { clients: Clients; authenticator: Authenticator; logger: Logger; bodyLimitBytes: number; publicUrl?: string },
): void {
  const origin = deps.publicUrl ? { origin: publicOrigin(deps.publicUrl) } : {};
  mountOAuthServer(app, throttle, {
    clients: deps.clients,
    authenticator: deps.authenticator,
    logger: deps.logger,
    ...origin,
  });
  mountScim(app, throttle, {
    clients: deps.clients,
    logger: deps.logger,
    bodyLimitBytes: deps.bodyLimitBytes,
    ...(deps.publicUrl ? { publicUrl: deps.publicUrl } : {}),
  });
  mountSso(app, throttle, { clients: deps.clients, ...origin });
  mountIntegrationEvents(app, throttle, { clients: deps.clients, bodyLimitBytes: deps.bodyLimitBytes });
  mountGitHubAppManifestForm(app, throttle, { clients: deps.clients });
}

export async function startGateway(opts: GatewayOptions): Promise<Gateway> {
  const clients = connectClients(opts.services);
  const authenticator = new Authenticator(clients, opts.logger, opts.authCacheTtlMs, opts.authStaleIfErrorMs ?? 0);
  // Every gateway instance must hear every revocation: a group of its own.
  const revoked = await opts.bus.subscribe<{ key_id: string }>(
    TOPICS.keyRevoked,
    `gateway-${newId("evt")}`,
    async (e) => authenticator.forgetKey(e.data.key_id),
  );
  const limiter = new RateLimiter(opts.limits);
  // A report that failed produced nothing: it gives its organization's report quota back.
  const reportsFailed = await opts.bus.subscribe<{ organization_id: string; created_at: string }>(
    TOPICS.reportFailed,
    `gateway-${newId("evt")}`,
    async (e) => {
      const countedAt = Date.parse(e.data.created_at);
      if (e.data.organization_id && !Number.isNaN(countedAt))
        await limiter.refund(`org:${e.data.organization_id}`, "reports_create", countedAt);
    },
  );
  // A 31 MiB body parsed here would stop every organization's requests for as long.
  const bodyPool = opts.bodyWorkers
    ? new FairPool<BodyJob, BodyOutcome>({
        filename: workerFile(import.meta.url, "./http/bodyWorker.js"),
        name: "body",
        threads: opts.bodyWorkers,
        maxThreadsPerKey: Math.max(1, opts.bodyWorkers - 1),
        // Bodies of 1 MiB and more only: decoding them yields the cores to the request threads
        // and the scans of small evaluations (Linux thread niceness; see docs/performance.md).
        niceness: LOW_PRIORITY_NICENESS,
      })
    : undefined;
  const app = buildApp({
    routes,
    clients,
    authenticator,
    limiter,
    logger: opts.logger,
    bodyLimitBytes: opts.bodyLimitBytes,
    trustProxy: opts.trustProxy,
    mount: (app, throttle) =>
      mountOutsideRouteTable(app, throttle, {
        clients,
        authenticator,
        logger: opts.logger,
        bodyLimitBytes: opts.bodyLimitBytes,
        ...(opts.publicUrl ? { publicUrl: opts.publicUrl } : {}),
      }),
    ...(opts.publicUrl ? { publicUrl: opts.publicUrl } : {}),
    ...(opts.maxEvaluationsInFlightPerOrg ? { maxEvaluationsInFlightPerOrg: opts.maxEvaluationsInFlightPerOrg } : {}),
    ...(bodyPool
      ? {
          bodyWorkers: {
            pool: bodyPool,
            minBytes: opts.bodyWorkerMinBytes ?? 1024 * 1024,
            // Parsing the largest body takes well under a second; past this the threads are stuck.
            timeoutMs: 30_000,
          },
        }
      : {}),
    portalDir: findPortalDir(opts.portalDir),
  });
  if (!app.get("portal")) opts.logger.warn({}, "the dashboard is not built (pnpm run build): / serves no pages");
  // Slow clients ("slow loris"): the whole request must arrive within requestTimeout (Node
  // answers 408 and closes), its headers within headersTimeout; the check runs every second.
  const requestTimeout = opts.requestTimeoutMs ?? 60_000;
  const server = createServer(
    {
      requestTimeout,
      headersTimeout: Math.min(opts.headersTimeoutMs ?? 10_000, requestTimeout),
      connectionsCheckingInterval: 1_000,
    },
    (req, res) => {
      drain.track(req, res);
      app(req, res);
    },
  );
  // Advertised to clients (`Keep-Alive: timeout=5`); a drain leaves idle sockets to it.
  server.keepAliveTimeout = 5_000;
  const drain = drainer(server);
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(opts.port, opts.host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  opts.logger.info({ port, host: opts.host }, "gateway listening");
  return {
    port,
    server,
    async stop() {
      // Stop accepting; requests in flight or arriving on open connections are answered with
      // `Connection: close`; idle connections close at their keep-alive timeout; whatever is
      // left is cut when the grace ends (http/drain.ts).
      await drain.drain(opts.shutdownGraceMs ?? 15_000);
      await revoked.unsubscribe();
      await reportsFailed.unsubscribe();
      await bodyPool?.close();
      clients.close();
    },
  };
}
