import { z } from "zod";

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
export const portVar = (fallback: number) =>
  z.coerce.number().int().min(0).max(65535).default(fallback);

export const boolVar = (fallback: boolean) =>
  z
    .enum(["true", "false", "1", "0", "yes", "no"])
    .default(fallback ? "true" : "false")
    .transform((v) => v === "true" || v === "1" || v === "yes");
