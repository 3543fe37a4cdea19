// What the gateway is started with (startGateway, the gateway thread, the configuration
// variables): a file of its own, so that those modules share the types without importing each
// other.
import type { Bus } from "@verdict/bus";
import type { Logger } from "@verdict/kit";
import type { ServiceAddresses } from "./clients.js";
import type { LimitDefaults } from "./http/rateLimit.js";

/**
 * Which peers may set X-Forwarded-For, in express `trust proxy` terms: false (none), a number
 * of proxy hops in front of Verdict, or proxy addresses / CIDR ranges (and express's names
 * `loopback`, `linklocal`, `uniquelocal`). The client address is then the right-most address of
 * the chain that is not a trusted proxy, so a client cannot choose it by sending the header
 * itself. `true` means one hop: trusting every hop would take the left-most address, which the
 * client writes.
 */
export type TrustProxy = false | number | string[];

export interface GatewayOptions {
  host: string;
  port: number;
  services: ServiceAddresses;
  bus: Bus;
  logger: Logger;
  limits: LimitDefaults;
  bodyLimitBytes: number;
  authCacheTtlMs: number;
  /** Past the TTL, how long a cached verification answers while identity cannot (0: never). */
  authStaleIfErrorMs?: number;
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
  /** Threads that parse and validate large evaluation bodies; 0 or unset: this thread does. */
  bodyWorkers?: number;
  /** Bodies of at least this many bytes go to them; default 1 MiB. */
  bodyWorkerMinBytes?: number;
  /** Where the built dashboard is; unset: the installed @verdict/portal's dist/. */
  portalDir?: string;
}
