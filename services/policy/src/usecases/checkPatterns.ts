// Custom patterns are checked on the pattern-check worker threads, one job per pattern with a
// deadline: RE2's syntax and the empty-match rule, then the cost budget (domain/patternBudget);
// for a structural rule, its keys first (here: domain/structuralPattern), then ast-grep's compile,
// the matches-everything rule, the cost budget and its samples (domain/structuralBudget).
// A pattern whose check overruns is named as refused; the first costly pattern ends the check,
// so a policy of a hundred costly patterns costs one pattern's deadline, not a hundred.
// The pattern tester runs the same check with sample text: a pattern that passes is then run on
// it in the same job.
import { type FieldError } from "@verdict/kit";
import { PoolJobError } from "@verdict/runtime";
import { PATTERN_TYPES } from "../domain/pattern.js";
import type { CustomPolicyInput } from "../domain/customPolicy.js";
import { checkPatternFields, structuralProblems, type CustomStructuralLanguage } from "../domain/structuralPattern.js";
import type { SampleMatches } from "../domain/patternSample.js";
import type { PolicyDeps } from "../deps.js";
import type { PatternCheckOutcome } from "../patternWorker.js";

export interface PatternChecks {
  problems: FieldError[];
  /** Per pattern (same index), when a sample was given and the pattern passed. */
  samples: (SampleMatches | undefined)[];
}

export interface CheckPatternsQuery {
  organizationId: string;
  patterns: Omit<CustomPolicyInput["patterns"][number], "message">[];
  sample?: { text: string; maxMatches: number };
}

export async function checkPatterns(
  deps: PolicyDeps,
  { organizationId, patterns, sample }: CheckPatternsQuery,
): Promise<PatternChecks> {
  const problems: FieldError[] = [];
  const samples: (SampleMatches | undefined)[] = [];
  for (const [i, p] of patterns.entries()) {
    const field = `patterns[${i}]`;
    if (!(PATTERN_TYPES as readonly string[]).includes(p.type)) {
      problems.push({
        field: `${field}.type`,
        code: "INVALID_ENUM",
        message: `pattern type must be one of: ${PATTERN_TYPES.join(", ")}`,
      });
      continue;
    }
    // What the type needs and does not take (the schema takes every field with either type).
    const fields = checkPatternFields(p, field);
    if (fields.length) {
      problems.push(...fields);
      continue;
    }
    const structural = p.type === "structural";
    if (structural) {
      const rule = structuralProblems(p, field);
      if (rule.length) {
        problems.push(...rule);
        continue;
      }
    }
    let result: PatternCheckOutcome;
    try {
      result = await deps.patternChecks.run(
        organizationId,
        {
          ...(structural
            ? {
                structural: {
                  language: p.language as CustomStructuralLanguage,
                  rule: p.rule!,
                  constraints: p.constraints,
                  ruleid: p.ruleid ?? [],
                  ok: p.ok ?? [],
                },
              }
            : { value: p.value }),
          budget: deps.budgets.pattern,
          ...(sample ? { sample } : {}),
        },
        { timeoutMs: deps.budgets.checkTimeoutMs },
      );
    } catch (err) {
      if (!(err instanceof PoolJobError) || err.reason !== "deadline") throw err;
      result = {
        problem: structural
          ? {
              message: `Rule is too costly: checking it took longer than ${deps.budgets.checkTimeoutMs} ms; anchor it on a kind or pattern`,
              costly: true,
              field: "rule",
            }
          : {
              message: `Pattern is too costly: checking it took longer than ${deps.budgets.checkTimeoutMs} ms; use smaller repetition counts and classes`,
              costly: true,
            },
      };
    }
    if (!result.problem) {
      samples[i] = result.sample;
      continue;
    }
    problems.push({
      field: `${field}.${result.problem.field ?? "value"}`,
      code: "INVALID_FORMAT",
      message: result.problem.message,
    });
    if (result.problem.costly) break;
  }
  return { problems, samples };
}
