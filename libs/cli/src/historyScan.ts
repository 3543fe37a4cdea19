// Evaluates commits' added lines (history.ts reads them from git) through the API, a slice of
// commits at a time, and maps each finding back to the commit, author, date, file and line that
// added it. `scan history`, `evaluate --base` (the commits since REF) and the pre-receive hook
// (the commits of a push) share it.
import type { Evaluation, VerdictClient } from "@verdict/sdk";
import { encodeFile } from "./batches.js";
import { evaluateInBatches, type Envelope } from "./evaluateBatches.js";
import { commitList, composeRounds, readSlice, type Composed } from "./history.js";

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
  const found: HistoryFinding[] = [];
  const slice = await readSlice(root, shas, blobs, opts.paths);
  for (const round of composeRounds(slice.additions)) {
    const byPath = new Map<string, Composed>(round.map((c) => [c.path, c]));
    const parts = await evaluateInBatches(
      client,
      envelope,
      round.map((c) => ({ ...c, bytes: c.content.length })),
      (c) => encodeFile({ path: c.path, status: "added", content: c.content }),
      { concurrency: opts.concurrency, note: () => undefined },
    );
    for (const e of parts) {
      onEvaluation(e);
      if (e.violations.length < e.summary.total_violations)
        opts.note(`evaluation ${e.id} kept ${e.violations.length} of ${e.summary.total_violations} findings`);
      for (const { id: _id, ...v } of e.violations) {
        const origin = byPath.get(v.file)?.origin[v.line - 1];
        if (!origin) continue;
        const addition = slice.additions[origin.addition]!;
        const commit = slice.commits[addition.commit]!;
        found.push({
          ...v,
          line: origin.line,
          commit: commit.sha,
          author: commit.author,
          email: commit.email,
          date: commit.date,
        });
      }
    }
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
  const commits = await commitList(root, [...range, ...(opts.paths?.length ? ["--", ...opts.paths] : [])]);
  const blobs = new Set<string>();
  const findings: HistoryFinding[] = [];
  for (let i = 0; i < commits.length; i += opts.slice)
    findings.push(
      ...(await scanSlice(client, root, commits.slice(i, i + opts.slice), blobs, envelope, opts, onEvaluation)),
    );
  return { commits, findings: sortFindings(findings, commits) };
}

/** One line per finding: commit, date, author, file:line:column, severity, policy, message, and the redacted line. */
export function formatHistoryFinding(f: HistoryFinding): string {
  const head = `${f.commit.slice(0, 10)} ${f.date.slice(0, 10)} ${f.author} ${f.file}:${f.line}:${f.column} ${f.severity} ${f.policy_id} ${f.message}`;
  return f.code_snippet.trim() ? `${head}\n    ${f.code_snippet.trim()}` : head;
}
