// Entry point of a pattern-check worker thread (piscina calls the default export with each job).
import { measurePattern, type PatternBudget } from "./domain/patternBudget.js";
import { patternProblem } from "./domain/pattern.js";
import { matchSample, type SampleMatches } from "./domain/patternSample.js";

export interface PatternCheckJob {
  value: string;
  budget: PatternBudget;
  /** The pattern tester: once the pattern passes its checks, run it on this text. */
  sample?: { text: string; maxMatches: number };
}

export interface PatternCheckResult {
  message: string;
  /** Over the cost budget (not a syntax problem): the check of the other patterns stops. */
  costly: boolean;
}

/** A problem (the pattern is refused), or none and, when a sample was given, its matches. */
export type PatternCheckOutcome = { problem: PatternCheckResult } | { problem: null; sample?: SampleMatches };

export default function check(job: PatternCheckJob): PatternCheckOutcome {
  const syntax = patternProblem(job.value);
  if (syntax) return { problem: { message: syntax, costly: false } };
  const cost = measurePattern(job.value, job.budget);
  if (cost) return { problem: { message: cost, costly: true } };
  // Measured first: a pattern within the budget scans the capped sample in milliseconds.
  return job.sample
    ? { problem: null, sample: matchSample(job.value, job.sample.text, job.sample.maxMatches) }
    : { problem: null };
}
