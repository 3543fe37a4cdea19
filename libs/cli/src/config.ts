// Where the CLI finds Verdict and its key: VERDICT_URL and VERDICT_API_KEY, else the file
// `verdict login` wrote in the user's config directory (0600: it holds a credential).
import { chmodSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join } from "node:path";
import { normalizeBaseUrl } from "@verdict/sdk";
import { CliError } from "./errors.js";

export interface StoredConfig {
  url?: string;
  api_key?: string;
}

export interface ResolvedConfig {
  url: string;
  apiKey: string | undefined;
  /** Where each value came from, for `verdict config`-style messages. */
  source: "environment" | "config file" | "default";
}

export const DEFAULT_URL = "http://localhost:8080";

/** $XDG_CONFIG_HOME/verdict/config.json (~/.config/…), %APPDATA%\verdict on Windows. */
export function configPath(env: NodeJS.ProcessEnv = process.env): string {
  if (env.VERDICT_CONFIG_FILE) return env.VERDICT_CONFIG_FILE;
  const base = env.XDG_CONFIG_HOME || (process.platform === "win32" && env.APPDATA) || join(homedir(), ".config");
  return join(base, "verdict", "config.json");
}

export function readStoredConfig(path = configPath()): StoredConfig {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch {
    return {};
  }
  try {
    const parsed = JSON.parse(text) as StoredConfig;
    return typeof parsed === "object" && parsed ? parsed : {};
  } catch {
    throw new CliError(`${path} is not valid JSON: run 'verdict login' again`);
  }
}

export function writeStoredConfig(config: StoredConfig, path = configPath()): void {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  writeFileSync(path, JSON.stringify(config, null, 2) + "\n", { mode: 0o600 });
  // writeFileSync keeps the mode of an existing file: make sure it is private.
  chmodSync(path, 0o600);
}

export function removeStoredConfig(path = configPath()): boolean {
  try {
    rmSync(path);
    return true;
  } catch {
    return false;
  }
}

const sameServer = (a: string, b: string) => normalizeBaseUrl(a) === normalizeBaseUrl(b);

/**
 * The environment wins over the stored file, each variable on its own; but a stored key is only
 * ever sent to the server it was stored for, never to another VERDICT_URL.
 */
export function resolveConfig(env: NodeJS.ProcessEnv = process.env): ResolvedConfig {
  const stored = readStoredConfig(configPath(env));
  const url = env.VERDICT_URL || stored.url;
  const storedKeyApplies =
    stored.api_key && (!env.VERDICT_URL || (stored.url !== undefined && sameServer(env.VERDICT_URL, stored.url)));
  const apiKey = env.VERDICT_API_KEY || (storedKeyApplies ? stored.api_key : undefined);
  const source =
    env.VERDICT_URL || env.VERDICT_API_KEY ? "environment" : stored.url || stored.api_key ? "config file" : "default";
  return { url: url || DEFAULT_URL, apiKey: apiKey || undefined, source };
}

/** $VERDICT_POLICY_CACHE, else $XDG_CACHE_HOME/verdict/policies.json (~/.cache/…). */
export function policyCachePath(env: NodeJS.ProcessEnv): string {
  if (env.VERDICT_POLICY_CACHE) return env.VERDICT_POLICY_CACHE;
  return join(env.XDG_CACHE_HOME || join(homedir(), ".cache"), "verdict", "policies.json");
}
