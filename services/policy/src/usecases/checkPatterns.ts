// Custom patterns are checked on the pattern-check worker threads, one job per pattern with a
// deadline: RE2's syntax and the empty-match rule, then the cost budget (domain/patternBudget).
// A pattern whose check overruns is named as refused; the first costly pattern ends the check,
// so a policy of a hundred costly patterns costs one pattern's deadline, not a hundred.
import { type FieldError } from "@verdict/kit";
import { PoolJobError } from "@verdict/runtime";
import { PATTERN_TYPES } from "../domain/pattern.js";
import type { CustomPolicyInput } from "../domain/customPolicy.js";
import type { PolicyDeps } from "../deps.js";

export async function checkPatterns(
  deps: PolicyDeps,
  organizationId: string,
  patterns: CustomPolicyInput["patterns"],
): Promise<FieldError[]> {
  const problems: FieldError[] = [];
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
    let result: { message: string; costly: boolean } | null;
    try {
      result = await deps.patternChecks.run(
        organizationId,
        { value: p.value, budget: deps.budgets.pattern },
        { timeoutMs: deps.budgets.checkTimeoutMs },
      );
    } catch (err) {
      if (!(err instanceof PoolJobError) || err.reason !== "deadline") throw err;
      result = {
        message: `Pattern is too costly: checking it took longer than ${deps.budgets.checkTimeoutMs} ms; use smaller repetition counts and classes`,
        costly: true,
      };
    }
    if (!result) continue;
    problems.push({ field: `${field}.value`, code: "INVALID_FORMAT", message: result.message });
    if (result.costly) break;
  }
  return problems;
}
