import { pino, type Logger } from "pino";

export type { Logger };

/**
 * Structured JSON logs. Credentials are redacted wherever they could appear: headers, the
 * legacy `api_key` query parameter (stripped from URLs before logging by the gateway) and any
 * field named like a secret.
 */
export function createLogger(service: string, level = process.env.VERDICT_LOG_LEVEL ?? "info"): Logger {
  return pino({
    name: service,
    level,
    // No pid/hostname noise; children add `service` (all-in-one) or `component`.
    base: undefined,
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: {
      paths: [
        "req.headers.authorization",
        "req.headers.cookie",
        "req.query.api_key",
        "key",
        "api_key",
        "secret",
        "password",
        "*.key",
        "*.api_key",
        "*.secret",
        "*.password",
      ],
      censor: "[redacted]",
    },
  });
}

/**
 * Writes out what the logger still buffers, synchronously: before the process image is replaced
 * (execve) nothing else would write it.
 */
export function flushLogsSync(logger: Logger): void {
  const stream = (logger as unknown as Record<symbol, { flushSync?: () => void } | undefined>)[pino.symbols.streamSym];
  try {
    stream?.flushSync?.();
  } catch {
    // Nothing was buffered, or the stream is gone: the exit goes ahead either way.
  }
}
