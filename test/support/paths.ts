import { resolve } from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = resolve(fileURLToPath(new URL("../..", import.meta.url)));

/**
 * The run's V8 compile cache (scripts/test.sh sets NODE_COMPILE_CACHE), for the processes the
 * suites start with an environment of their own (Verdict, its services, the CLI): each module is
 * compiled once a run, not once a process.
 */
export const COMPILE_CACHE_ENV: Record<string, string> = process.env.NODE_COMPILE_CACHE
  ? { NODE_COMPILE_CACHE: process.env.NODE_COMPILE_CACHE }
  : {};
