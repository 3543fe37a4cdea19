import { AppError } from "@verdict/kit";

export const passkeyRefused = (why: string) =>
  new AppError("unauthorized", "AUTH_INVALID_MFA_CODE", `The passkey's answer was not accepted: ${why}`);

/** The browser's answer as JSON, or 422 on response. */
export function parseResponse<T>(json: string): T {
  try {
    const v = JSON.parse(json) as unknown;
    if (v && typeof v === "object" && !Array.isArray(v)) return v as T;
  } catch {
    // fall through
  }
  throw new AppError("unprocessable", "VALIDATION_FAILED", "Request validation failed", {
    errors: [{ field: "response", code: "INVALID_FORMAT", message: "response must be the credential's toJSON()" }],
  });
}

/** The library's verification throws on malformed or mismatching answers: both are a refusal. */
export async function orRefused<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    throw passkeyRefused((err as Error).message.slice(0, 200));
  }
}
