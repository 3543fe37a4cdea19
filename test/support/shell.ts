// The documentation's shell blocks, run as written.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "./paths.js";

/** The ```sh blocks of `doc` (relative to the repository) from the heading `section` on, in order. */
export function shellBlocks(doc: string, section: string): string[] {
  const text = readFileSync(join(ROOT, doc), "utf8");
  const at = text.indexOf(section);
  if (at < 0) throw new Error(`${doc} has no section ${section}`);
  return [...text.slice(at).matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]!);
}

/** This machine's bash (found on the test's PATH: the script's own PATH may not have it). */
const BASH = execFileSync("bash", ["-c", "command -v bash"], { encoding: "utf8" }).trim();

/** Runs a script with bash (no rc files, -euo pipefail) in `cwd` with exactly `env`; its stdout. */
export const bash = (script: string, cwd: string, env: Record<string, string>): string =>
  execFileSync(BASH, ["--norc", "--noprofile", "-euo", "pipefail", "-c", script], { cwd, env, encoding: "utf8" });
