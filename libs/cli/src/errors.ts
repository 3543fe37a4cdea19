// How the CLI ends: exit 0 on success, 1 when an evaluation fails, 2 when the command could not
// do its job (usage, authentication, connection, or another API error). Always one line on
// stderr, never a stack trace, never the API key.
import { VerdictApiError, VerdictConnectionError } from "@verdict/sdk";

export const EXIT = { ok: 0, failed: 1, error: 2 } as const;

/** A mistake the user can fix (missing configuration, bad argument): exit 2 with this message. */
export class CliError extends Error {
  constructor(message: string) {
    super(message);
  }
}

/** The engine's modules could not load: the npm package carries RE2's addon for one platform (docs/install.md). */
export const engineLoadError = (err: Error): CliError =>
  new CliError(`--offline cannot load the engine here (${process.platform}-${process.arch}): ${err.message}`);

/** The one line printed for an error that ends the command. */
export function describeError(err: unknown): string {
  if (err instanceof VerdictApiError) {
    const where = err.requestId ? ` (request ${err.requestId})` : "";
    if (err.status === 401) return `authentication failed: ${err.message} [${err.code}]${where}`;
    if (err.status === 403) return `permission denied: ${err.message} [${err.code}]${where}`;
    const fields = Array.isArray(err.details?.errors)
      ? ": " +
        (err.details.errors as { field?: string; message?: string; code?: string }[])
          .map((f) => `${f.field}: ${f.message}${f.code ? ` (${f.code})` : ""}`)
          .join("; ")
      : "";
    return `${err.message}${fields} [${err.code}]${where}`;
  }
  if (err instanceof VerdictConnectionError) return err.message;
  if (err instanceof CliError) return err.message;
  if (err instanceof Error) return err.message.split("\n")[0]!;
  return String(err);
}

/**
 * Removes any API key, and any other Verdict secret (SCIM token, OAuth client secret or token,
 * session, invitation or MFA token), from text that reaches the terminal as an error.
 */
export function redactKeys(text: string): string {
  return text
    .replace(/vdt_key_(prod|test)_[A-Za-z0-9]+/g, "vdt_key_$1_****")
    .replace(/vdt_(scim|ocs|oat|ort|ses|inv|mfa)_[A-Za-z0-9_-]+/g, "vdt_$1_****");
}
