import { InvalidArgumentError, type Command } from "commander";

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
