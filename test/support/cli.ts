// Runs the real `verdict` binary (libs/cli/dist/bin.js) as a child process, as a user or a CI
// job would: its own environment (a private HOME and config directory), stdin, exit code.
import { expect } from "@jest/globals";
import { execFileSync, spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { COMPILE_CACHE_ENV, ROOT } from "./paths.js";

export const CLI = join(ROOT, "libs/cli/dist/bin.js");

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface CliOptions {
  env?: Record<string, string | undefined>;
  cwd?: string;
  input?: string;
  /** Type `input` only once stdout shows this text (a prompt), as a person would. */
  inputAfter?: string;
}

/** A fresh HOME with an empty config directory, so no login of the machine's user leaks in. */
export function isolatedHome(): { HOME: string; XDG_CONFIG_HOME: string } {
  const home = mkdtempSync(join(tmpdir(), "verdict-cli-home-"));
  return { HOME: home, XDG_CONFIG_HOME: join(home, ".config") };
}

/**
 * Runs a documentation's shell block as written, in bash with `-euo pipefail`, `verdict` being
 * this checkout's CLI; answers its stdout (throws when a command fails).
 */
export function runDocBlock(block: string, opts: { env: Record<string, string>; cwd?: string }): string {
  return execFileSync(
    "bash",
    ["--norc", "--noprofile", "-euo", "pipefail", "-c", `verdict() { "${process.execPath}" "${CLI}" "$@"; }\n${block}`],
    { env: { PATH: process.env.PATH ?? "", ...opts.env }, cwd: opts.cwd ?? ROOT, encoding: "utf8" },
  );
}

export function runCli(args: string[], opts: CliOptions = {}): Promise<CliResult> {
  return runCommand(process.execPath, [CLI, ...args], opts);
}

export function runCommand(cmd: string, args: string[], opts: CliOptions = {}): Promise<CliResult> {
  const env: Record<string, string> = { PATH: process.env.PATH ?? "", ...COMPILE_CACHE_ENV };
  for (const [k, v] of Object.entries(opts.env ?? {})) if (v !== undefined) env[k] = v;
  const child = spawn(cmd, args, { cwd: opts.cwd ?? ROOT, env, stdio: ["pipe", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  let typed = false;
  child.stdout.on("data", (d: Buffer) => {
    stdout += d.toString("utf8");
    if (opts.inputAfter && !typed && stdout.includes(opts.inputAfter)) {
      typed = true;
      child.stdin.write(opts.input ?? "");
    }
  });
  child.stderr.on("data", (d: Buffer) => (stderr += d.toString("utf8")));
  // A command that exits without reading its input (`exit 1`) closes the pipe first: not an error.
  child.stdin.on("error", () => undefined);
  if (!opts.inputAfter) child.stdin.end(opts.input ?? "");
  return new Promise((resolve, reject) => {
    child.once("error", reject);
    child.once("close", (code) => resolve({ code, stdout, stderr }));
  });
}

/**
 * An installed `verdict` evaluates new.js (holding an AWS key) and config.js (clean) in `repo`
 * against the Verdict `env` names: it fails on the key, and only on it.
 */
export async function expectKeyFound(verdict: string, repo: string, env: Record<string, string>): Promise<void> {
  const evaluated = await runCommand(verdict, ["evaluate", "new.js", "config.js", "--json"], { cwd: repo, env });
  expect(evaluated.stderr).toBe("");
  expect(evaluated.code).toBe(1);
  const evaluation = JSON.parse(evaluated.stdout) as { summary: { total_files: number }; violations: object[] };
  expect(evaluation.summary.total_files).toBe(2);
  expect(evaluation.violations).toEqual([expect.objectContaining({ policy_id: "aws-credentials", file: "new.js" })]);
}
