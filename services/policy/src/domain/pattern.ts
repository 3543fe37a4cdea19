// Pattern rules shared by custom policy creation and the built-in self-check: a pattern must be
// RE2 syntax (linear-time matching, so no lookaround or backreferences) and must not match the
// empty string, which would report nothing useful at every position of every file.
import RE2 from "re2";

/** A custom pattern's types: RE2, or a syntax-aware rule (structuralPattern.ts). */
export const PATTERN_TYPES = ["regex", "structural"] as const;

/** The reason a pattern cannot be used, in RE2's own words where RE2 rejects it. */
export function patternProblem(value: string): string | undefined {
  let re: RE2;
  try {
    re = new RE2(value, "u");
  } catch (err) {
    return `Not a valid RE2 pattern: ${(err as Error).message}`;
  }
  if (re.test("")) return "Pattern matches the empty string; it must match at least one character";
  return undefined;
}
