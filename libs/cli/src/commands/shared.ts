import { readFileSync } from "node:fs";
import { InvalidArgumentError, type Command } from "commander";
import { CliError } from "../errors.js";

/** --json anywhere on the command line. */
export function jsonOf(cmd: Command): boolean {
  return Boolean(cmd.optsWithGlobals().json);
}

export function positiveInt(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError("must be a positive integer");
  return n;
}

export function bool(value: string): boolean {
  if (value === "true") return true;
  if (value === "false") return false;
  throw new InvalidArgumentError("must be true or false");
}

export function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

/** A repeatable option whose values may also be comma-separated: `--policy a --policy b,c`. */
export function collectList(value: string, previous: string[] = []): string[] {
  return [
    ...previous,
    ...value
      .split(",")
      .map((v) => v.trim())
      .filter(Boolean),
  ];
}

/**
 * The policies `--policy` and `--category` ask for: the ids named, and every policy of each category
 * (`secrets`, `security`, `configuration`, or a custom policy's); none asked: [] (every policy). A
 * category no policy has is an error, not an empty selection.
 */
export function selectPolicies(
  all: readonly { id: string; category: string }[],
  ids: readonly string[] = [],
  categories: readonly string[] = [],
): string[] {
  const known = new Set(all.map((p) => p.category));
  const missing = categories.filter((c) => !known.has(c));
  if (missing.length)
    throw new CliError(
      `no policy in categor${missing.length === 1 ? "y" : "ies"} ${missing.join(", ")} (there are: ${[...known].sort().join(", ")})`,
    );
  return [...new Set([...ids, ...all.filter((p) => categories.includes(p.category)).map((p) => p.id)])];
}

/** A secret from stdin (first line, trimmed): never an argument, which shells and `ps` keep. */
export async function secretFromStdin(option: string): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(Buffer.from(chunk as Buffer));
  const secret = Buffer.concat(chunks).toString("utf8").split(/\r?\n/)[0]!.trim();
  if (!secret) throw new CliError(`${option}: stdin is empty`);
  return secret;
}

export function readText(file: string): string {
  try {
    return readFileSync(file, "utf8");
  } catch (err) {
    throw new CliError(`cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`);
  }
}
