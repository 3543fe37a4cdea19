// Wires the gateway: config in, HTTP out. Holds no business state.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { TOPICS, type Bus } from "@verdict/bus";
import { newId, type Logger } from "@verdict/kit";
import { connectClients, type ServiceAddresses } from "./clients.js";
import { buildApp } from "./http/app.js";
import { Authenticator } from "./http/auth.js";
import type { TrustProxy } from "./http/config.js";
import { RateLimiter, type LimitDefaults } from "./http/rateLimit.js";
import { routes } from "./routes/index.js";
import { mountOAuthServer } from "./oauth/routes.js";
import { mountSso } from "./routes/sso.js";

export interface GatewayOptions {
  host: string;
  port: number;
  services: ServiceAddresses;
  bus: Bus;
  logger: Logger;
  limits: LimitDefaults;
  bodyLimitBytes: number;
  authCacheTtlMs: number;
  trustProxy: TrustProxy;
  /** A request's headers and body must arrive within this (slow clients get 408); default 60 s. */
  requestTimeoutMs?: number;
  /** Its headers within this; default 10 s. */
  headersTimeoutMs?: number;
  /** How long in-flight requests may take to finish on shutdown. */
  shutdownGraceMs?: number;
  /** Public base URL of the API (…/v1) for links the API hands out; unset: the request's host. */
  publicUrl?: string;
  /** Evaluation requests of one organization in flight at once; unset: no cap. */
  maxEvaluationsInFlightPerOrg?: number;
}

export interface Gateway {
  port: number;
  server: Server;
  stop(): Promise<void>;
}

// Request bodies are documented in "input" form (fields with defaults are optional).
export const REQUEST_SCHEMA_IDS = new Set([
  "PutSsoConnection",
  "OidcToken",
  "FileInput",
  "CreateEvaluation",
  "Pattern",
  "Suggestion",
  "CreatePolicy",
  "UpdatePolicy",
  "ConnectRepository",
  "UpdateOrganization",
  "CreateOrganization",
  "UpdateOrganizationLimits",
  "RateLimits",
  "CreateApiKey",
  "CreateOAuthClient",
  "CreateReport",
  "DateRange",
  "CreateWebhook",
  "UpdateWebhook",
  "InviteMember",
  "UpdateMember",
  "AcceptInvitation",
  "Login",
  "TotpLogin",
  "ConfirmTotp",
  "PasskeyRegistration",
  "PasskeyLoginOptions",
  "PasskeyLogin",
]);

export async function startGateway(opts: GatewayOptions): Promise<Gateway> {
  const clients = connectClients(opts.services);
  const authenticator = new Authenticator(clients, opts.logger, opts.authCacheTtlMs);
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
  const app = buildApp({
    routes,
    clients,
    authenticator,
    limiter,
    logger: opts.logger,
    bodyLimitBytes: opts.bodyLimitBytes,
    trustProxy: opts.trustProxy,
    requestSchemaIds: REQUEST_SCHEMA_IDS,
    mount: (app, throttle) => {
      mountOAuthServer(app, throttle, {
        clients,
        authenticator,
        logger: opts.logger,
        ...(opts.publicUrl ? { origin: opts.publicUrl.replace(/\/v1\/?$/, "") } : {}),
      });
      mountSso(app, throttle, {
        clients,
        ...(opts.publicUrl ? { origin: opts.publicUrl.replace(/\/v1\/?$/, "") } : {}),
      });
    },
    ...(opts.publicUrl ? { publicUrl: opts.publicUrl } : {}),
    ...(opts.maxEvaluationsInFlightPerOrg ? { maxEvaluationsInFlightPerOrg: opts.maxEvaluationsInFlightPerOrg } : {}),
  });
  const draining = { value: false };
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
      if (draining.value) res.setHeader("Connection", "close");
      app(req, res);
    },
  );
  server.keepAliveTimeout = 5_000;
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
      // Stop accepting, let in-flight requests finish (their connections close once they are
      // answered, instead of idling in keep-alive), then cut whatever is left after the grace.
      draining.value = true;
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      const sweep = setInterval(() => server.closeIdleConnections(), 50);
      server.closeIdleConnections();
      const timer = setTimeout(() => server.closeAllConnections(), opts.shutdownGraceMs ?? 15_000);
      await closed;
      clearInterval(sweep);
      clearTimeout(timer);
      await revoked.unsubscribe();
      await reportsFailed.unsubscribe();
      clients.close();
    },
  };
}
