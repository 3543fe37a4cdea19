// The policy form's pattern tester: the patterns are checked exactly as createPolicy checks them
// (same worker, budget, deadline, fields and codes), then run on the sample text with the
// engine's flags. Nothing is stored.
import { errors } from "@verdict/kit";
import type { SampleMatch } from "../domain/patternSample.js";
import type { PolicyDeps } from "../deps.js";
import { checkPatternFields, type StructuralFields } from "../domain/structuralPattern.js";
import { checkPatterns } from "./checkPatterns.js";

/** Matches in one answer, over all patterns; more are reported as truncated. */
export const MAX_SAMPLE_MATCHES = 200;

export interface TestPatternsCommand {
  organizationId: string;
  patterns: ({ type: string; value: string } & StructuralFields)[];
  text: string;
}

export interface PatternTestResult {
  matches: (SampleMatch & { pattern: number })[];
  truncated: boolean;
}

export async function testPatterns(deps: PolicyDeps, cmd: TestPatternsCommand): Promise<PatternTestResult> {
  if (cmd.patterns.length === 0) {
    throw errors.validation([
      { field: "patterns", code: "MIN_SIZE_REQUIRED", message: "give at least one pattern", min: 1 },
    ]);
  }
  const shape = cmd.patterns.flatMap((p, i) => checkPatternFields(p, `patterns[${i}]`));
  if (shape.length) throw errors.unprocessable(shape);
  const { problems, samples } = await checkPatterns(deps, {
    organizationId: cmd.organizationId,
    patterns: cmd.patterns,
    sample: { text: cmd.text, maxMatches: MAX_SAMPLE_MATCHES },
  });
  if (problems.length)
    throw errors.unprocessable(problems, problems.length === 1 ? problems[0]!.message : "Some patterns cannot be used");
  const matches = samples
    .flatMap((s, pattern) => (s ? s.matches.map((m) => ({ pattern, ...m })) : []))
    .sort((a, b) => a.line - b.line || a.column - b.column || a.pattern - b.pattern);
  const truncated = matches.length > MAX_SAMPLE_MATCHES || samples.some((s) => s?.truncated);
  return { matches: matches.slice(0, MAX_SAMPLE_MATCHES), truncated };
}
