// Connections of an organization to a hosting provider, as the API takes them.
import { requiredEnumProblem, type FieldError } from "@verdict/kit";

/** The providers a connection can be made to now (GitHub and GitLab join with their adapters). */
export const CONNECTION_PROVIDERS = ["gitea"] as const;
export type ConnectionProvider = (typeof CONNECTION_PROVIDERS)[number];

export const MIN_SECRET_LENGTH = 16;
const MAX_SECRET_LENGTH = 256;
const MAX_TOKEN_LENGTH = 512;
const MAX_URL_LENGTH = 2048;

export interface ConnectionInput {
  provider: string;
  base_url: string;
  token: string;
  webhook_secret: string;
}

export function checkConnectionInput(input: ConnectionInput): FieldError[] {
  const problems: FieldError[] = [];
  const provider = requiredEnumProblem("provider", input.provider, CONNECTION_PROVIDERS);
  if (provider) problems.push(provider);
  if (!input.base_url) problems.push({ field: "base_url", code: "REQUIRED", message: "base_url is required" });
  else if (input.base_url.length > MAX_URL_LENGTH)
    problems.push({
      field: "base_url",
      code: "MAX_SIZE_EXCEEDED",
      message: "base_url is too long",
      max: MAX_URL_LENGTH,
    });
  else if (!isHttpUrl(input.base_url))
    problems.push({
      field: "base_url",
      code: "INVALID_FORMAT",
      message: "base_url must be an http(s) URL without credentials, query or fragment",
    });
  if (!input.token) problems.push({ field: "token", code: "REQUIRED", message: "token is required" });
  else if (input.token.length > MAX_TOKEN_LENGTH)
    problems.push({ field: "token", code: "MAX_SIZE_EXCEEDED", message: "token is too long", max: MAX_TOKEN_LENGTH });
  if (!input.webhook_secret)
    problems.push({ field: "webhook_secret", code: "REQUIRED", message: "webhook_secret is required" });
  else if (input.webhook_secret.length < MIN_SECRET_LENGTH)
    problems.push({
      field: "webhook_secret",
      code: "MIN_SIZE_REQUIRED",
      message: `webhook_secret must have at least ${MIN_SECRET_LENGTH} characters`,
      min: MIN_SECRET_LENGTH,
    });
  else if (input.webhook_secret.length > MAX_SECRET_LENGTH)
    problems.push({
      field: "webhook_secret",
      code: "MAX_SIZE_EXCEEDED",
      message: "webhook_secret is too long",
      max: MAX_SECRET_LENGTH,
    });
  return problems;
}

function isHttpUrl(value: string): boolean {
  try {
    const u = new URL(value);
    return (u.protocol === "https:" || u.protocol === "http:") && !u.username && !u.password && !u.search && !u.hash;
  } catch {
    return false;
  }
}

/** The base URL as stored: no trailing slash. */
export function normalizeBaseUrl(value: string): string {
  return value.replace(/\/+$/, "");
}

/** Where the provider delivers a connection's webhooks (the gateway's route). */
export function eventsPath(provider: string, connectionId: string): string {
  return `/v1/integrations/${provider}/events?connection=${connectionId}`;
}
