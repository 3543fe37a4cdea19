// The gateway's configuration variables, declared once: the gateway process (bin.ts) and
// all-in-one (services/all-in-one/src/config.ts) read them the same way.
import { isIP } from "node:net";
import { z } from "zod";
import { portVar } from "@verdict/kit";
import {
  addressVar,
  optionalString,
  DEFAULT_ADDRESSES,
  HTTP_PORT,
  orgMaxEvaluationsInFlightVar,
  positiveInt,
  processConfig,
  publicUrlVar,
  type ProcessConfig,
  documentVariables,
} from "@verdict/runtime";
import type { GatewayOptions, TrustProxy } from "../options.js";
import { SPEC_DEFAULTS } from "./rateLimit.js";

const PROXY_NAMES = new Set(["loopback", "linklocal", "uniquelocal"]);

function isProxyEntry(entry: string): boolean {
  if (PROXY_NAMES.has(entry)) return true;
  const [addr, bits, extra] = entry.split("/");
  const family = isIP(addr ?? "");
  if (!family || extra !== undefined) return false;
  if (bits === undefined) return true;
  return /^\d{1,3}$/.test(bits) && Number(bits) <= (family === 4 ? 32 : 128);
}

export const trustProxyVar = () =>
  z
    .string()
    .default("false")
    .transform((raw, ctx): TrustProxy => {
      const v = raw.trim().toLowerCase();
      if (v === "" || v === "false" || v === "0" || v === "no") return false;
      if (v === "true" || v === "yes") return 1;
      if (/^\d{1,2}$/.test(v)) return Number(v);
      const entries = v.split(",").map((e) => e.trim());
      const bad = entries.filter((e) => !isProxyEntry(e));
      if (bad.length) {
        ctx.addIssue({
          code: "custom",
          message: `must be false, a number of proxy hops, or comma-separated proxy addresses / CIDR ranges (loopback, linklocal, uniquelocal allowed); not: ${bad.join(", ")}`,
        });
        return z.NEVER;
      }
      return entries;
    });

const ms = (fallback: number) => z.coerce.number().int().min(1000).max(3_600_000).default(fallback);

export const gatewayHttpConfig = z.object({
  VERDICT_TRUST_PROXY: trustProxyVar(),
  /** Whole request (headers and body) must arrive within this; else 408 and the connection closes. */
  VERDICT_REQUEST_TIMEOUT_MS: ms(60_000),
  /** The request headers must arrive within this. */
  VERDICT_HEADERS_TIMEOUT_MS: ms(10_000),
  /** Prometheus metrics at /metrics on this port (0: a free one); unset: not served. Never on the API port. */
  VERDICT_METRICS_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  /** Address the metrics port listens on. */
  VERDICT_METRICS_HOST: z.string().min(1).default("127.0.0.1"),
});

export type GatewayHttpConfig = z.infer<typeof gatewayHttpConfig>;

/** Everything the gateway reads, in either process. */
export const gatewayConfig = gatewayHttpConfig.extend({
  VERDICT_HTTP_PORT: portVar(HTTP_PORT),
  VERDICT_HTTP_HOST: z.string().min(1).default("0.0.0.0"),
  /** Public base URL (scheme and host) for links the API hands out; unset: the request's host. */
  VERDICT_PUBLIC_URL: publicUrlVar(),
  VERDICT_MAX_BODY_BYTES: positiveInt(32 * 1024 * 1024),
  /** Evaluation requests of one organization in flight at once (bodies held in memory). */
  VERDICT_ORG_MAX_EVALUATIONS_IN_FLIGHT: orgMaxEvaluationsInFlightVar(),
  VERDICT_AUTH_CACHE_TTL_MS: z.coerce.number().int().min(0).default(30_000),
  /** Past its TTL, a verification still answers while identity cannot (0: never). */
  VERDICT_AUTH_STALE_IF_ERROR_MS: z.coerce.number().int().min(0).default(300_000),
  /** Threads that parse and validate large evaluation bodies (0: on the gateway's own thread). */
  VERDICT_BODY_WORKERS: z.coerce.number().int().min(0).max(64).default(1),
  /** Bodies of at least this many bytes go to those threads. */
  VERDICT_BODY_WORKER_MIN_BYTES: positiveInt(1024 * 1024),
  VERDICT_RATE_LIMIT_PER_MINUTE: positiveInt(1_000),
  VERDICT_RATE_LIMIT_PER_HOUR: positiveInt(20_000),
  VERDICT_RATE_LIMIT_PER_DAY: positiveInt(240_000),
  /** The built dashboard (services/portal/dist); unset: the installed @verdict/portal's. */
  VERDICT_PORTAL_DIR: z.string().min(1).optional(),
});

export type GatewayConfig = z.infer<typeof gatewayConfig>;

/** The gateway as its own process (bin.ts). VERDICT_METRICS_PORT / _HOST are served by runProcess. */
export const gatewayProcessConfig = processConfig.extend({
  ...gatewayConfig.shape,
  VERDICT_IDENTITY_ADDRESS: addressVar(DEFAULT_ADDRESSES.identity),
  VERDICT_POLICY_ADDRESS: addressVar(DEFAULT_ADDRESSES.policy),
  VERDICT_EVALUATION_ADDRESS: addressVar(DEFAULT_ADDRESSES.evaluation),
  VERDICT_COMPLIANCE_ADDRESS: addressVar(DEFAULT_ADDRESSES.compliance),
  VERDICT_WEBHOOKS_ADDRESS: addressVar(DEFAULT_ADDRESSES.webhooks),
  /** Unset: the integrations service is not deployed (its routes answer 503). */
  VERDICT_INTEGRATIONS_ADDRESS: optionalString().refine((v) => v === undefined || /^[^\s:]+:\d{1,5}$/.test(v), {
    message: "must be host:port",
  }),
});

/** The gateway options these variables set (all but where the services are, the bus and the logger). */
export function gatewayOptions(
  c: GatewayConfig & Pick<ProcessConfig, "VERDICT_SHUTDOWN_GRACE_MS">,
): Omit<GatewayOptions, "services" | "bus" | "logger"> {
  const publicUrl = c.VERDICT_PUBLIC_URL?.replace(/\/+$/, "");
  return {
    host: c.VERDICT_HTTP_HOST,
    port: c.VERDICT_HTTP_PORT,
    ...(publicUrl ? { publicUrl: `${publicUrl}/v1` } : {}),
    limits: {
      ...SPEC_DEFAULTS,
      per_minute: c.VERDICT_RATE_LIMIT_PER_MINUTE,
      per_hour: c.VERDICT_RATE_LIMIT_PER_HOUR,
      per_day: c.VERDICT_RATE_LIMIT_PER_DAY,
    },
    bodyLimitBytes: c.VERDICT_MAX_BODY_BYTES,
    maxEvaluationsInFlightPerOrg: c.VERDICT_ORG_MAX_EVALUATIONS_IN_FLIGHT,
    bodyWorkers: c.VERDICT_BODY_WORKERS,
    bodyWorkerMinBytes: c.VERDICT_BODY_WORKER_MIN_BYTES,
    authCacheTtlMs: c.VERDICT_AUTH_CACHE_TTL_MS,
    authStaleIfErrorMs: c.VERDICT_AUTH_STALE_IF_ERROR_MS,
    trustProxy: c.VERDICT_TRUST_PROXY,
    requestTimeoutMs: c.VERDICT_REQUEST_TIMEOUT_MS,
    headersTimeoutMs: c.VERDICT_HEADERS_TIMEOUT_MS,
    shutdownGraceMs: c.VERDICT_SHUTDOWN_GRACE_MS,
    ...(c.VERDICT_PORTAL_DIR ? { portalDir: c.VERDICT_PORTAL_DIR } : {}),
  };
}

documentVariables({
  VERDICT_HTTP_PORT: "HTTP port of the API (0 picks a free one)",
  VERDICT_HTTP_HOST: "Address the API listens on",
  VERDICT_MAX_BODY_BYTES: "Largest request body (32 MiB); a file's content is limited to 1 MiB",
  VERDICT_PORTAL_DIR: {
    meaning:
      "Directory of the built dashboard the gateway serves at `/` (see [the dashboard](dashboard.md)); without a build it serves only the API",
    default: "the installed `@verdict/portal` package's `dist/`",
  },
  VERDICT_BODY_WORKERS:
    "Threads of the gateway that decode, parse and validate large `POST /v1/evaluations` bodies, one organization's turn at a time (`0`: on the thread that answers every request)",
  VERDICT_BODY_WORKER_MIN_BYTES:
    "Bodies of at least this many bytes go to those threads; smaller ones are parsed where they arrive",
  VERDICT_AUTH_CACHE_TTL_MS:
    "How long the gateway trusts a verified key before asking again (revocations apply at once)",
  VERDICT_AUTH_STALE_IF_ERROR_MS:
    "Past that, how long a key's last verification still answers when the identity service cannot be reached or does not answer in time (a rolling upgrade, a restart); never past the key's expiry, never for a key revoked or narrowed meanwhile, never for OAuth tokens or sessions. `0`: such requests get `503`",
  VERDICT_TRUST_PROXY:
    "Which proxies in front of Verdict may set `X-Forwarded-For` (client addresses for IP allowlists and per-address limits), with express's `trust proxy` meaning: `false` (none), a number of proxy hops (`1`: one load balancer), or comma-separated proxy addresses / CIDR ranges (`10.0.0.0/8,loopback`; also `linklocal`, `uniquelocal`). The client is the right-most address that is no trusted proxy, so a client that writes the header itself cannot choose its address. `true` means `1`",
  VERDICT_REQUEST_TIMEOUT_MS:
    "A request's headers and body must arrive within this (1000–3600000); a slower client gets `408` and the connection is closed",
  VERDICT_HEADERS_TIMEOUT_MS: "A request's headers must arrive within this (at most `VERDICT_REQUEST_TIMEOUT_MS`)",
  VERDICT_METRICS_HOST: "Address the metrics port listens on (`0.0.0.0` to let a Prometheus on another host scrape it)",
  VERDICT_RATE_LIMIT_PER_MINUTE:
    "Default per-organization limit per minute (also per client address for unauthenticated calls)",
  VERDICT_RATE_LIMIT_PER_HOUR: "Default per-organization limit per hour",
  VERDICT_RATE_LIMIT_PER_DAY: "Default per-organization limit per day",
});
