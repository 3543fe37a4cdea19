// A custom structural rule tried before it is stored, on a pattern-check worker thread (under
// the same deadline as a regex pattern): ast-grep compiles it for its language as the engine does
// (a rule it refuses is named with ast-grep's reason), it must single out code (a rule matching
// an empty file, or at least half the nodes of ordinary code, reports nothing useful), its
// matching time (the thread's CPU time) on probes of ordinary code growing to 64 KiB, scaled to
// a MiB, must stay within PatternBudget.maxStructuralMsPerMiB (parsing is not counted: the engine
// parses a file once for every rule), and its samples must come out as written (each `ruleid`
// sample matched, no `ok` sample matched). The tester then runs it on the sample text.
import { parse, type NapiConfig, type SgNode } from "@ast-grep/napi";
import { PARSER, registerLanguages } from "@verdict/structural";
import type { SampleMatch, SampleMatches } from "./patternSample.js";
import { probeSnippet, probeText } from "./structuralProbe.js";
import type { CustomStructuralLanguage } from "./structuralPattern.js";

const PROBE_STEPS = [1024, 4 * 1024, 16 * 1024, 64 * 1024];
const MIB = 1024 * 1024;

export interface StructuralJob {
  language: CustomStructuralLanguage;
  rule: Record<string, unknown>;
  constraints?: Record<string, unknown> | undefined;
  ruleid?: string[];
  ok?: string[];
}

/** A refusal: the field it names (relative to the pattern: `rule`, `ruleid[0]`), and whether it is the cost budget. */
export interface StructuralProblem {
  field: string;
  message: string;
  costly: boolean;
}

const configOf = (job: StructuralJob): NapiConfig =>
  ({ rule: job.rule, ...(job.constraints ? { constraints: job.constraints } : {}) }) as NapiConfig;

function findAll(language: CustomStructuralLanguage, text: string, config: NapiConfig): SgNode[] {
  registerLanguages();
  return parse(PARSER[language], text).root().findAll(config);
}

function namedNodes(root: SgNode): number {
  let count = 0;
  const stack = [root];
  while (stack.length) {
    const node = stack.pop()!;
    if (node.isNamed()) count++;
    stack.push(...node.children());
  }
  return count;
}

/** This thread's CPU time in milliseconds: what other processes on the machine do does not count. */
function threadCpuMs(): number {
  const { user, system } = process.threadCpuUsage();
  return (user + system) / 1000;
}

/** The reason a structural rule cannot be stored, or undefined. */
export function checkStructural(job: StructuralJob, maxMsPerMiB: number): StructuralProblem | undefined {
  const config = configOf(job);
  // ast-grep compiles the rule on each parse: an empty file shows whether it accepts it.
  let onEmpty: number;
  try {
    onEmpty = findAll(job.language, "", config).length;
  } catch (e) {
    return { field: "rule", message: `ast-grep refuses the rule: ${(e as Error).message}`, costly: false };
  }
  const snippet = parse(PARSER[job.language], probeSnippet(job.language)).root();
  const total = namedNodes(snippet);
  const matched = snippet.findAll(config).length;
  if (onEmpty > 0 || matched * 2 >= total) {
    return {
      field: "rule",
      message: `The rule matches ${onEmpty > 0 ? "an empty file" : `${matched} of the ${total} nodes of ordinary ${job.language} code`}: it must single out the code it reports`,
      costly: false,
    };
  }
  // Measured on growing probes (1, 4, 16, 64 KiB): a rule whose cost grows faster than the code
  // (`inside: {stopBy: end}` over the whole file, then `has: {stopBy: end}` back down it is
  // quadratic: minutes on 64 KiB) is refused on a small probe, in milliseconds, and each step
  // costs at most 16 times the last one that was within the budget.
  for (const step of PROBE_STEPS) {
    const text = probeText(job.language, step);
    const bytes = Buffer.byteLength(text, "utf8");
    const probe = parse(PARSER[job.language], text).root();
    // The thread's CPU time, the least of three runs: the machine's other work only ever adds time.
    let best = Infinity;
    for (let i = 0; i < 3 && best * (MIB / bytes) > maxMsPerMiB; i++) {
      const start = threadCpuMs();
      probe.findAll(config);
      best = Math.min(best, threadCpuMs() - start);
    }
    const perMiB = best * (MIB / bytes);
    if (perMiB > maxMsPerMiB) {
      return {
        field: "rule",
        message: `Rule is too costly: it matches at about ${Math.round(perMiB)} ms per MiB of code (limit ${maxMsPerMiB} ms); anchor it on a kind or pattern, and narrow what stopBy: end searches`,
        costly: true,
      };
    }
  }
  for (const [i, sample] of (job.ruleid ?? []).entries()) {
    if (!findAll(job.language, sample, config).length)
      return { field: `ruleid[${i}]`, message: `The rule does not match ruleid sample ${i}`, costly: false };
  }
  for (const [i, sample] of (job.ok ?? []).entries()) {
    const hit = findAll(job.language, sample, config)[0];
    if (hit)
      return {
        field: `ok[${i}]`,
        message: `The rule matches ok sample ${i} at line ${hit.range().start.line + 1}: ${hit.text().slice(0, 80)}`,
        costly: false,
      };
  }
  return undefined;
}

/** Line and column (1-based, code points) of UTF-16 offsets in `text`, in one pass. */
function positions(text: string, offsets: number[]): Map<number, { line: number; column: number }> {
  const wanted = [...new Set(offsets)].sort((a, b) => a - b);
  const out = new Map<number, { line: number; column: number }>();
  let line = 1;
  let column = 1;
  let w = 0;
  for (let i = 0; i <= text.length && w < wanted.length; i++) {
    while (w < wanted.length && wanted[w] === i) out.set(wanted[w++]!, { line, column });
    if (i === text.length) break;
    const unit = text.charCodeAt(i);
    if (unit === 10) {
      line++;
      column = 1;
    } else if (unit < 0xdc00 || unit > 0xdfff) column++; // a low surrogate ends a code point counted at its high one
  }
  return out;
}

/** A checked rule's matches on sample text, in reading order, as the tester shows them. */
export function matchStructuralSample(job: StructuralJob, text: string, maxMatches: number): SampleMatches {
  const nodes = findAll(job.language, text, configOf(job));
  const found = nodes.slice(0, maxMatches).map((n) => {
    const r = n.range();
    return { start: r.start.index, end: r.end.index, text: n.text() };
  });
  const at = positions(
    text,
    found.flatMap((f) => [f.start, f.end]),
  );
  const matches: SampleMatch[] = found.map((f) => {
    const s = at.get(f.start)!;
    const e = at.get(f.end)!;
    return { line: s.line, column: s.column, end_line: e.line, end_column: e.column, text: f.text };
  });
  return { matches, truncated: nodes.length > maxMatches };
}
