// Evaluates commits' added lines (history.ts reads them from git) through the API (or, offline,
// with the engine in this process), a slice of commits at a time, and maps each finding back to the commit, author, date, file and line that
// added it. `scan history`, `evaluate --base` (the commits since REF) and the pre-receive hook
// (the commits of a push) share it.
import type { Evaluation, VerdictClient } from "@verdict/sdk";
import { encodeFile, type MergedEvaluation } from "./batches.js";
import { evaluateInBatches, type Envelope } from "./evaluateBatches.js";
import { commitList, composeRounds, readSlice, type CommitSlice, type Composed } from "./history.js";

type Violation = Evaluation["violations"][number];

export interface HistoryFinding extends Omit<Violation, "id"> {
  commit: string;
  author: string;
  email: string;
  date: string;
}

export interface SliceScanOptions {
  concurrency: number;
  /** Pathspecs (relative to the root) to keep to; none: every file. */
  paths?: string[];
  /** Progress for people (stderr). */
  note: (text: string) => void;
}

/**
 * The findings in the lines `shas` added (git's order kept), each blob read once (`blobs`, which
 * it extends, carries the blobs seen across slices). The evaluations it made are passed to
 * `onEvaluation` (a bypass names them).
 */
export async function scanSlice(
  client: VerdictClient,
  root: string,
  shas: string[],
  blobs: Set<string>,
  envelope: Envelope,
  opts: SliceScanOptions,
  onEvaluation: (e: Evaluation) => void = () => undefined,
): Promise<HistoryFinding[]> {
  return evaluateSlice(client, await readSlice(root, shas, blobs, opts.paths), envelope, opts, onEvaluation);
}

/** scanSlice() of a slice already read from git. */
export async function evaluateSlice(
  client: VerdictClient,
  slice: CommitSlice,
  envelope: Envelope,
  opts: SliceScanOptions,
  onEvaluation: (e: Evaluation) => void = () => undefined,
): Promise<HistoryFinding[]> {
  const found: { text: Composed; v: Omit<Violation, "id"> }[] = [];
  for (const round of composeRounds(slice))
    found.push(...(await evaluateTexts(client, envelope, round, opts, onEvaluation)));
  return inCommits(slice, found);
}

/** A finding in a composed text as the commit, author, date, file and line that added it. */
function inCommits(slice: CommitSlice, found: { text: Composed; v: Omit<Violation, "id"> }[]): HistoryFinding[] {
  return found.flatMap(({ text, v }) => {
    const origin = text.origin[v.line - 1];
    if (!origin) return [];
    const addition = slice.additions[origin.addition]!;
    const commit = slice.commits[addition.commit]!;
    const { id: _id, ...finding } = v as Violation;
    return [
      {
        ...finding,
        line: origin.line,
        commit: commit.sha,
        author: commit.author,
        email: commit.email,
        date: commit.date,
      },
    ];
  });
}

/** Scans one text here (the offline engine): its findings, every one of them. */
export type TextScanner = (path: string, content: Buffer) => Omit<Violation, "id">[];

/** Work done between two turns of the event loop while scanning here: git's output keeps flowing. */
const TURN_MS = 20;

/**
 * evaluateSlice()'s findings, the texts scanned in this process by `scan` instead of the API. It
 * lets the event loop turn every few milliseconds, so that the next slice read from git meanwhile
 * (a pipe holds 64 KiB) is not held up.
 */
export async function scanSliceHere(scan: TextScanner, slice: CommitSlice): Promise<HistoryFinding[]> {
  const found: { text: Composed; v: Omit<Violation, "id"> }[] = [];
  let turn = performance.now();
  for (const round of composeRounds(slice))
    for (const text of round) {
      for (const v of scan(text.path, text.content)) found.push({ text, v });
      if (performance.now() - turn > TURN_MS) {
        await new Promise(setImmediate);
        turn = performance.now();
      }
    }
  return inCommits(slice, found);
}

/** Scans many texts elsewhere (the offline engine on a thread of its own): each text's findings, every one. */
export type TextsScanner = (texts: { path: string; content: Buffer }[]) => Promise<Omit<Violation, "id">[][]>;

/** scanSliceHere()'s findings, every text of the slice scanned by `scan` at once. */
export async function scanSliceThere(scan: TextsScanner, slice: CommitSlice): Promise<HistoryFinding[]> {
  const texts = composeRounds(slice).flat();
  const findings = await scan(texts);
  return inCommits(
    slice,
    texts.flatMap((text, i) => findings[i]!.map((v) => ({ text, v }))),
  );
}

/** A text's first and second half, by lines (the second empty for a single line). */
function halves(c: Composed): [Composed, Composed] {
  const lines = c.content.toString("utf8").split("\n").slice(0, c.origin.length);
  const half = Math.ceil(lines.length / 2);
  const part = (from: number, to: number): Composed => ({
    path: c.path,
    content: Buffer.from(lines.slice(from, to).join("\n") + "\n", "utf8"),
    origin: c.origin.slice(from, to),
  });
  return [part(0, half), part(half, lines.length)];
}

/**
 * The violations of `round`'s texts (one per path), each with the text it is in. An evaluation
 * keeps at most 1,000 violations: when one kept fewer than it found, its texts are sent again
 * in halves (first halves, then second halves: a round never names a path twice) until every
 * finding is back, or a single line has more than that.
 */
async function evaluateTexts(
  client: VerdictClient,
  envelope: Envelope,
  round: Composed[],
  opts: SliceScanOptions,
  onEvaluation: (e: Evaluation) => void,
): Promise<{ text: Composed; v: Violation }[]> {
  const found: { text: Composed; v: Violation }[] = [];
  const again: Composed[] = [];
  await evaluateInBatches(
    client,
    envelope,
    round.map((c) => ({ ...c, bytes: c.content.length })),
    (c) => encodeFile({ path: c.path, status: "added", content: c.content }),
    {
      concurrency: opts.concurrency,
      note: () => undefined,
      batchDone: (start, end, e) => {
        onEvaluation(e);
        const texts = round.slice(start, end);
        if (e.violations.length < e.summary.total_violations) {
          if (texts.some((t) => t.origin.length > 1)) return void again.push(...texts);
          opts.note(`evaluation ${e.id} kept ${e.violations.length} of ${e.summary.total_violations} findings`);
        }
        const byPath = new Map(texts.map((t) => [t.path, t]));
        for (const v of e.violations) {
          const text = byPath.get(v.file);
          if (text) found.push({ text, v });
        }
      },
    },
  );
  if (again.length) {
    const split = again.map(halves);
    found.push(
      ...(await evaluateTexts(
        client,
        envelope,
        split.map(([a]) => a),
        opts,
        onEvaluation,
      )),
    );
    const seconds = split.map(([, b]) => b).filter((b) => b.origin.length > 0);
    if (seconds.length) found.push(...(await evaluateTexts(client, envelope, seconds, opts, onEvaluation)));
  }
  return found;
}

/** Oldest commit first (the order of `shas`), then file and line. */
export function sortFindings(findings: HistoryFinding[], shas: string[]): HistoryFinding[] {
  const order = new Map(shas.map((sha, i) => [sha, i]));
  return findings.sort(
    (a, b) => order.get(a.commit)! - order.get(b.commit)! || a.file.localeCompare(b.file) || a.line - b.line,
  );
}

/** All the findings of `range` (git log revision arguments), in slices of `slice` commits. */
export async function scanRange(
  client: VerdictClient,
  root: string,
  range: string[],
  envelope: Envelope,
  opts: SliceScanOptions & { slice: number },
  onEvaluation?: (e: Evaluation) => void,
): Promise<{ commits: string[]; findings: HistoryFinding[] }> {
  return scanRangeWith(root, range, opts, (slice) => evaluateSlice(client, slice, envelope, opts, onEvaluation));
}

/** scanRange() with the engine here (`evaluate --offline --base`): the same texts, scanned by `scan`. */
export function scanRangeHere(
  scan: () => TextScanner,
  root: string,
  range: string[],
  opts: { slice: number; paths?: string[] },
): Promise<{ commits: string[]; findings: HistoryFinding[] }> {
  let scanner: TextScanner | undefined;
  // The engine is made for the first slice only: a range with no commit (--base HEAD) needs none.
  return scanRangeWith(root, range, opts, (slice) => scanSliceHere((scanner ??= scan()), slice));
}

async function scanRangeWith(
  root: string,
  range: string[],
  opts: { slice: number; paths?: string[] },
  scanOne: (slice: CommitSlice) => Promise<HistoryFinding[]>,
): Promise<{ commits: string[]; findings: HistoryFinding[] }> {
  const commits = await commitList(root, [...range, ...(opts.paths?.length ? ["--", ...opts.paths] : [])]);
  const blobs = new Set<string>();
  const findings: HistoryFinding[] = [];
  for (let i = 0; i < commits.length; i += opts.slice)
    findings.push(...(await scanOne(await readSlice(root, commits.slice(i, i + opts.slice), blobs, opts.paths))));
  return { commits, findings: sortFindings(findings, commits) };
}

/** One line per finding: commit, date, author, file:line:column, severity, policy, message, and the redacted line. */
export function formatHistoryFinding(f: HistoryFinding): string {
  const head = `${f.commit.slice(0, 10)} ${f.date.slice(0, 10)} ${f.author} ${f.file}:${f.line}:${f.column} ${f.severity} ${f.policy_id} ${f.message}`;
  return f.code_snippet.trim() ? `${head}\n    ${f.code_snippet.trim()}` : head;
}

/**
 * For SARIF: an evaluation (or none) with history findings added as violations whose message
 * ends with `note(finding)` (which commit added it), and the counts and verdict to match.
 */
export function withFindings(
  e: MergedEvaluation | null,
  findings: HistoryFinding[],
  note: (f: HistoryFinding) => string,
): MergedEvaluation | null {
  if (!findings.length) return e;
  const extra = findings.map(({ commit, author: _a, email: _e, date: _d, ...v }, i) => ({
    ...v,
    id: `commit:${commit}`,
    message: `${v.message} (${note(findings[i]!)})`,
  }));
  const errors = extra.filter((v) => v.severity === "error").length;
  const now = new Date().toISOString();
  const base: MergedEvaluation = e ?? {
    id: null,
    evaluations: [],
    status: "completed",
    repository: "",
    ref: "",
    base_ref: null,
    created_at: now,
    completed_at: now,
    passed: true,
    summary: { total_files: 0, total_violations: 0, errors: 0, warnings: 0, suppressed: 0, skipped_files: 0 },
    violations: [],
    suppressions: [],
  };
  return {
    ...base,
    passed: base.passed && errors === 0,
    violations: [...base.violations, ...extra],
    summary: {
      ...base.summary,
      total_violations: base.summary.total_violations + extra.length,
      errors: base.summary.errors + errors,
      warnings: base.summary.warnings + extra.length - errors,
    },
  };
}
