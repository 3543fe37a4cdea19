import { isIP } from "node:net";
import { z } from "zod";
import { parseMasterKey } from "./secretBox.js";

/**
 * Parses environment variables with a zod object schema. On failure it throws one error that
 * lists every bad variable, so an operator fixes them all in one go.
 */
export function loadConfig<S extends z.ZodObject>(schema: S, env: NodeJS.ProcessEnv = process.env): z.infer<S> {
  const result = schema.safeParse(env);
  if (!result.success) {
    const lines = result.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join("\n")}`);
  }
  return result.data;
}

export class ConfigError extends Error {
  override name = "ConfigError";
}

/** A TCP port from an environment variable (0 picks a free one). */
export const portVar = (fallback: number) => z.coerce.number().int().min(0).max(65535).default(fallback);

export const boolVar = (fallback: boolean) =>
  z
    .enum(["true", "false", "1", "0", "yes", "no"])
    .default(fallback ? "true" : "false")
    .transform((v) => v === "true" || v === "1" || v === "yes");

function isNetwork(entry: string): boolean {
  const [addr, bits, extra] = entry.split("/");
  const family = isIP(addr ?? "");
  if (!family || extra !== undefined) return false;
  return bits === undefined || (/^\d{1,3}$/.test(bits) && Number(bits) <= (family === 4 ? 32 : 128));
}

/**
 * Loopback, private, link-local and metadata addresses an egress may reach (Egress's
 * allowPrivate): `false` (the default), `true`, or comma-separated addresses and CIDR ranges.
 */
export function allowPrivateVar() {
  return z
    .string()
    .default("false")
    .transform((raw, ctx): boolean | string[] => {
      const v = raw.trim().toLowerCase();
      if (v === "" || v === "false" || v === "0" || v === "no") return false;
      if (v === "true" || v === "1" || v === "yes") return true;
      const entries = v.split(",").map((e) => e.trim());
      const bad = entries.filter((e) => !isNetwork(e));
      if (bad.length) {
        ctx.addIssue({
          code: "custom",
          message: `must be false, true, or comma-separated addresses / CIDR ranges; not: ${bad.join(", ")}`,
        });
        return z.NEVER;
      }
      return entries;
    });
}

/**
 * VERDICT_WEBHOOK_MASTER_KEY: base64 of 32 bytes (the instance's master key: webhook secrets and,
 * through a subkey, TOTP seeds); unset means generated once into the data directory.
 */
export const masterKeyVar = () =>
  z
    .string()
    .optional()
    .superRefine((v, ctx) => {
      if (!v) return;
      try {
        parseMasterKey(v);
      } catch (err) {
        ctx.addIssue({
          code: "custom",
          message: `${(err as Error).message} (generate one with: openssl rand -base64 32)`,
        });
      }
    });
