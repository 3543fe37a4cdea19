import type { z } from "zod";
import { ProviderError } from "../domain/provider.js";

/** A header by name, whatever its case in the map the transport built. */
export function headerOf(headers: Record<string, string | undefined>, name: string): string | undefined {
  const wanted = name.toLowerCase();
  for (const [key, value] of Object.entries(headers)) if (key.toLowerCase() === wanted) return value;
  return undefined;
}

/** A delivery's payload through its schema; a mismatch is ProviderError("invalid") naming the field. */
export function readPayload<T extends z.ZodType>(schema: T, body: unknown, event: string): z.output<T> {
  const parsed = schema.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ProviderError(
      "invalid",
      `malformed ${event} payload at ${issue?.path.join(".") || "(root)"}: ${issue?.message}`,
    );
  }
  return parsed.data;
}
