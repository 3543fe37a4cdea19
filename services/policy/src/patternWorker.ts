// Entry point of a pattern-check worker thread (piscina calls the default export with each job).
import { measurePattern, type PatternBudget } from "./domain/patternBudget.js";
import { patternProblem } from "./domain/pattern.js";
import { matchSample, type SampleMatches } from "./domain/patternSample.js";
import { checkStructural, matchStructuralSample, type StructuralJob } from "./domain/structuralBudget.js";

export interface PatternCheckJob {
  /** A regex pattern's value (RE2 syntax). */
  value?: string;
  /** A structural pattern's rule (its shape and keys already checked: domain/structuralPattern). */
  structural?: StructuralJob;
  budget: PatternBudget;
  /** The pattern tester: once the pattern passes its checks, run it on this text. */
  sample?: { text: string; maxMatches: number };
}

export interface PatternCheckResult {
  message: string;
  /** Over the cost budget (not a syntax problem): the check of the other patterns stops. */
  costly: boolean;
  /** The refused field, within the pattern (`value`, `rule`, `ruleid[0]`); `value` when absent. */
  field?: string;
}

/** A problem (the pattern is refused), or none and, when a sample was given, its matches. */
export type PatternCheckOutcome = { problem: PatternCheckResult } | { problem: null; sample?: SampleMatches };

function checkRegex(value: string, job: PatternCheckJob): PatternCheckOutcome {
  const syntax = patternProblem(value);
  if (syntax) return { problem: { message: syntax, costly: false } };
  const cost = measurePattern(value, job.budget);
  if (cost) return { problem: { message: cost, costly: true } };
  // Measured first: a pattern within the budget scans the capped sample in milliseconds.
  return job.sample
    ? { problem: null, sample: matchSample(value, job.sample.text, job.sample.maxMatches) }
    : { problem: null };
}

export default function check(job: PatternCheckJob): PatternCheckOutcome {
  if (!job.structural) return checkRegex(job.value ?? "", job);
  const problem = checkStructural(job.structural, job.budget.maxStructuralMsPerMiB);
  if (problem) return { problem };
  return job.sample
    ? { problem: null, sample: matchStructuralSample(job.structural, job.sample.text, job.sample.maxMatches) }
    : { problem: null };
}
