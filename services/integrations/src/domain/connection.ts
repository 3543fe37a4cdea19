// Connections of an organization to a hosting provider, as the API takes them.
import { createPrivateKey } from "node:crypto";
import { requiredEnumProblem, type FieldError } from "@verdict/kit";

/** The providers a connection can be made to. */
export const CONNECTION_PROVIDERS = ["gitea", "github", "gitlab"] as const;
export type ConnectionProvider = (typeof CONNECTION_PROVIDERS)[number];

export const MIN_SECRET_LENGTH = 16;
const MAX_SECRET_LENGTH = 256;
const MAX_TOKEN_LENGTH = 512;
const MAX_URL_LENGTH = 2048;
const MAX_PRIVATE_KEY_LENGTH = 16_384;
const APP_ID = /^[0-9]{1,20}$/;

export interface ConnectionInput {
  provider: string;
  base_url: string;
  /** Gitea, GitLab: the access token. */
  token: string;
  webhook_secret: string;
  /** GitHub: the App's id and private key. */
  app_id?: string;
  private_key?: string;
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
  if (input.provider === "github") problems.push(...checkGitHubApp(input));
  else if (input.app_id || input.private_key)
    problems.push({
      field: input.app_id ? "app_id" : "private_key",
      code: "INVALID_FORMAT",
      message: "app_id and private_key are a GitHub App's; this provider takes a token",
    });
  else if (!input.token) problems.push({ field: "token", code: "REQUIRED", message: "token is required" });
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

/** A GitHub App's credentials: its numeric id and its PEM private key (no access token). */
function checkGitHubApp(input: ConnectionInput): FieldError[] {
  const problems: FieldError[] = [];
  if (input.token)
    problems.push({
      field: "token",
      code: "INVALID_FORMAT",
      message: "a GitHub connection takes app_id and private_key, not a token",
    });
  if (!input.app_id) problems.push({ field: "app_id", code: "REQUIRED", message: "app_id is required for github" });
  else if (!APP_ID.test(input.app_id))
    problems.push({ field: "app_id", code: "INVALID_FORMAT", message: "app_id must be the GitHub App's numeric id" });
  if (!input.private_key)
    problems.push({ field: "private_key", code: "REQUIRED", message: "private_key is required for github" });
  else if (input.private_key.length > MAX_PRIVATE_KEY_LENGTH)
    problems.push({
      field: "private_key",
      code: "MAX_SIZE_EXCEEDED",
      message: "private_key is too long",
      max: MAX_PRIVATE_KEY_LENGTH,
    });
  else if (!isRsaPrivateKey(input.private_key))
    problems.push({
      field: "private_key",
      code: "INVALID_FORMAT",
      message: "private_key must be the App's PEM private key (-----BEGIN RSA PRIVATE KEY-----)",
    });
  return problems;
}

/** A PEM RSA private key, as GitHub issues it (PKCS#1) or converted (PKCS#8): the App's JWT is RS256. */
function isRsaPrivateKey(pem: string): boolean {
  try {
    return createPrivateKey({ key: pem, format: "pem" }).asymmetricKeyType === "rsa";
  } catch {
    return false;
  }
}

function isHttpUrl(value: string): boolean {
  try {
    const u = new URL(value);
    return (u.protocol === "https:" || u.protocol === "http:") && !u.username && !u.password && !u.search && !u.hash;
  } catch {
    return false;
  }
}

/**
 * Providers whose repositories an organization without a connection to them still names (stored
 * by name, unverified, as before connections existed): GitHub and GitLab. Once it has a
 * connection, every repository it connects is asked of the provider.
 */
export function connectionOptional(provider: string): boolean {
  return provider === "github" || provider === "gitlab";
}

/** The base URL as stored: no trailing slash. */
export function normalizeBaseUrl(value: string): string {
  return value.replace(/\/+$/, "");
}

/** Where the provider delivers a connection's webhooks (the gateway's route). */
export function eventsPath(provider: string, connectionId: string): string {
  return `/v1/integrations/${provider}/events?connection=${connectionId}`;
}
