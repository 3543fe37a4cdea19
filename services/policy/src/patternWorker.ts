// Entry point of a pattern-check worker thread (piscina calls the default export with each job).
import { measurePattern, type PatternBudget } from "./domain/patternBudget.js";
import { patternProblem } from "./domain/pattern.js";

export interface PatternCheckJob {
  value: string;
  budget: PatternBudget;
}

export interface PatternCheckResult {
  message: string;
  /** Over the cost budget (not a syntax problem): the check of the other patterns stops. */
  costly: boolean;
}

export default function check(job: PatternCheckJob): PatternCheckResult | null {
  const syntax = patternProblem(job.value);
  if (syntax) return { message: syntax, costly: false };
  const cost = measurePattern(job.value, job.budget);
  return cost ? { message: cost, costly: true } : null;
}
