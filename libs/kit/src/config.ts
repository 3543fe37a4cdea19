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
