// What one custom pattern may cost, measured before it is accepted. RE2 keeps matching linear in
// the input, but the constant is the size of the compiled program: `[\pL\pN]{400}Z0` is valid
// RE2, takes seconds to compile and scans about 1 MiB a minute. node-re2 shows no program size,
// so three things that can be measured stand for it: the compile time, whether the pattern
// compiles as a one-pattern RE2.Set within a memory budget (RE2 refuses a program larger than
// about two thirds of it), and the time a scan of a fixed 64 KiB probe text takes, scaled to
// a MiB. Runs on a worker thread of the pattern-check pool, under a deadline: a pattern whose
// compile alone overruns is stopped there, not on the thread that answers requests.
import RE2 from "re2";

export interface PatternBudget {
  /** Compiling the pattern (as the engine does) may take this long. */
  maxCompileMs: number;
  /** The compiled program must fit an RE2.Set of this many bytes. */
  maxProgramBytes: number;
  /** Scanning must not cost more than this per MiB of input (measured on the probe text). */
  maxScanMsPerMiB: number;
  /** A structural rule's matching must not cost more than this per MiB of ordinary code (domain/structuralBudget). */
  maxStructuralMsPerMiB: number;
}

export const DEFAULT_PATTERN_BUDGET: PatternBudget = {
  maxCompileMs: 250,
  maxProgramBytes: 8 * 1024 * 1024,
  maxScanMsPerMiB: 100,
  maxStructuralMsPerMiB: 500,
};

// The engine's flags: rules run with gmdu, the set of all rules with mu.
export const RULE_FLAGS = "gmdu";
const SET_FLAGS = "mu";

/**
 * 64 KiB of text shaped like what gets scanned, including what makes patterns slow: long lines,
 * long runs of letters and digits (a minified bundle, base64, a key), and ordinary code.
 */
export const PROBE_TEXT: Buffer = (() => {
  const lines = [
    'const token = process.env.API_TOKEN ?? "AbCdEf0123456789xyzXYZ0123456789abcdefGHIJ"; // TODO rotate',
    `export const bundle = "${"QWxhZGRpbjpvcGVuIHNlc2FtZQ".repeat(40)}";`,
    "a".repeat(2048),
    "def handler(event, context):\n    return {'statusCode': 200, 'body': json.dumps(event)}",
    `${"0123456789abcdef".repeat(64)} ${"x".repeat(512)}`,
    "    if (user.isAdmin && request.method === 'POST') { audit.log(user.id, request.path); }",
  ];
  const text = lines.join("\n").repeat(64);
  return Buffer.from(text.slice(0, 64 * 1024), "utf8");
})();

const MIB = 1024 * 1024;

function elapsedMs(start: bigint): number {
  return Number(process.hrtime.bigint() - start) / 1e6;
}

/** The reason a valid pattern (see patternProblem) is refused as over the budget, or undefined. */
export function measurePattern(value: string, budget: PatternBudget): string | undefined {
  let start = process.hrtime.bigint();
  const re = new RE2(value, RULE_FLAGS);
  const compileMs = elapsedMs(start);
  if (compileMs > budget.maxCompileMs) {
    return `Pattern is too costly: compiling it took ${Math.round(compileMs)} ms (limit ${budget.maxCompileMs} ms); use smaller repetition counts and classes`;
  }
  try {
    new RE2.Set([value], SET_FLAGS, { maxMem: budget.maxProgramBytes });
  } catch {
    return `Pattern is too costly: its compiled program does not fit ${budget.maxProgramBytes} bytes; use smaller repetition counts and classes`;
  }
  // The fastest of three runs: the machine's other work only ever adds time.
  let best = Infinity;
  for (let i = 0; i < 3; i++) {
    start = process.hrtime.bigint();
    re.lastIndex = 0;
    while (re.exec(PROBE_TEXT)) {
      /* every match, as the engine's rule pass does */
    }
    best = Math.min(best, elapsedMs(start));
    if (best * (MIB / PROBE_TEXT.length) <= budget.maxScanMsPerMiB) break;
  }
  const perMiB = best * (MIB / PROBE_TEXT.length);
  if (perMiB > budget.maxScanMsPerMiB) {
    return `Pattern is too costly: it scans at about ${Math.round(perMiB)} ms per MiB (limit ${budget.maxScanMsPerMiB} ms); use smaller repetition counts and classes`;
  }
  return undefined;
}
