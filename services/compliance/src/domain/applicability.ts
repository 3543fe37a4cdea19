// Evidence semantics: whether an evaluation is evidence for a policy. A control "passed" only
// when one of its policies was enabled, ran in an evaluation, and could apply to a file that
// evaluation read; a rule that found nothing in files it could never match proves nothing.
//
// "Could apply" is decided from what the evaluation service records and the policy's scope as
// the policy service resolves it now:
// - the evaluation's scanned paths: files the engine read (not removed, binary, lock, minified or
//   empty), and the policies that ran (a policy runs only while enabled);
// - the policy's file scope: the languages and file formats it is written for (a built-in's
//   claimed languages, as RE2 patterns on the path; empty for secret and custom policies: any
//   text file), its rules' own path patterns (a rule without any runs on every path), and its
//   exclude_paths globs.
// A file is in scope when it is within the file scope, at least one rule's paths admit it, and no
// exclude glob names it. A policy disabled now is not resolved, so it has no scope: it gives no
// evidence (it is not "enabled"); its violations still count. An evaluation recorded before its
// scanned paths were (no `scanned_paths`) gives no evidence either: nothing says what it read.
import picomatch from "picomatch";
import RE2 from "re2";

/** A policy's scope on file paths, as plain data (it crosses to the report threads). */
export interface PolicyScope {
  /** RE2 patterns on the path: the languages and formats the policy is written for; empty: any text file. */
  file_scope: string[];
  /** Each rule's RE2 path patterns; a rule with none runs on any path. No rules: applies nowhere. */
  rule_paths: string[][];
  /** Glob patterns (the exclude_paths setting): files the policy does not check. */
  exclude_paths: string[];
}

export type PathTest = (path: string) => boolean;

const anyOf = (patterns: string[]): PathTest => {
  const res = patterns.map((p) => new RE2(p, "u"));
  return (path) => res.some((re) => re.test(path));
};

/** Whether the policy could apply to a file at this path (compiled once, for many paths). */
export function scopeTest(scope: PolicyScope): PathTest {
  const inScope = scope.file_scope.length ? anyOf(scope.file_scope) : () => true;
  const rules = scope.rule_paths.map((paths) => (paths.length ? anyOf(paths) : () => true));
  const excluded = scope.exclude_paths.length ? picomatch(scope.exclude_paths, { dot: true }) : () => false;
  return (path) => inScope(path) && rules.some((rule) => rule(path)) && !excluded(path);
}

/** What an evaluation tells about applicability. */
export interface EvaluatedFiles {
  /** Policies that ran. */
  policies: string[];
  /** Files the engine read; absent when the evaluation was recorded without them. */
  scanned_paths?: string[];
}

/**
 * The policies an evaluation is evidence for: those that ran in it and could apply to one of the
 * files it read. `tests` holds the path test of each policy with a scope.
 */
export function evidencedPolicies(evaluation: EvaluatedFiles, tests: Map<string, PathTest>): Set<string> {
  const paths = evaluation.scanned_paths ?? [];
  return new Set(
    evaluation.policies.filter((id) => {
      const test = tests.get(id);
      return test !== undefined && paths.some(test);
    }),
  );
}

/**
 * The path tests of the policies that have a scope (enabled policies), by policy id. Each answer
 * is remembered: the evaluations of a repository read mostly the same paths.
 */
export function scopeTests(policies: { id: string; scope?: PolicyScope | undefined }[]): Map<string, PathTest> {
  const tests = new Map<string, PathTest>();
  for (const p of policies) {
    if (!p.scope) continue;
    const test = scopeTest(p.scope);
    const seen = new Map<string, boolean>();
    tests.set(p.id, (path) => {
      let answer = seen.get(path);
      if (answer === undefined) seen.set(path, (answer = test(path)));
      return answer;
    });
  }
  return tests;
}
