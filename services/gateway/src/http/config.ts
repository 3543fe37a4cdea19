// The gateway's HTTP hardening variables, shared by the gateway process (bin.ts) and all-in-one
// (services/all-in-one/src/config.ts), so both read them the same way.
import { isIP } from "node:net";
import { z } from "zod";

/**
 * Which peers may set X-Forwarded-For, in express `trust proxy` terms: false (none), a number
 * of proxy hops in front of Verdict, or proxy addresses / CIDR ranges (and express's names
 * `loopback`, `linklocal`, `uniquelocal`). The client address is then the right-most address of
 * the chain that is not a trusted proxy, so a client cannot choose it by sending the header
 * itself. `true` means one hop: trusting every hop would take the left-most address, which the
 * client writes.
 */
export type TrustProxy = false | number | string[];

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
