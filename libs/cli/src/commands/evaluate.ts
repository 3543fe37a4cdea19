// verdict evaluate [PATHS…] [--base REF | --staged]: sends files (the change since REF, or the
// lines the next commit adds) to Verdict and prints the findings. Exit 0 when the evaluation
// passes (or the organization does not require it to), 1 when it fails. A change larger than one request goes as several evaluations, sent
// concurrently (evaluateBatches.ts) and printed as one.
import { existsSync, readFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import type { Command } from "commander";
import { VerdictApiError, type Policy, type RetryNotice, type VerdictClient } from "@verdict/sdk";
import { encodeFile, mergeEvaluations, type EncodedFile, type MergedEvaluation } from "../batches.js";
import { acceptedFingerprints, applyBaseline, BASELINE_PATH, parseBaseline, type Baseline } from "../baseline.js";
import type { Context, Output } from "../context.js";
import { CliError, engineLoadError, EXIT } from "../errors.js";
import { resolveConfig } from "../config.js";
import { evaluateInBatches } from "../evaluateBatches.js";
import { readFile, sizeFiles, type SizedFile } from "../files.js";
import { formatEvaluation } from "../format/text.js";
import {
  changeSince,
  currentRef,
  cwdPathspecs,
  gitRoot,
  listFiles,
  pathspecs,
  repositoryName,
  workTreeTop,
} from "../git.js";
import { composeRounds, readStaged, type CommitSlice } from "../history.js";
import { formatHistoryFinding, scanRange, scanRangeHere, withFindings, type HistoryFinding } from "../historyScan.js";
import type { OfflinePolicies } from "../offline.js";
import { VERSION } from "../version.js";
import { collectList, jsonOf, positiveInt } from "./shared.js";

/** SARIF output, loaded for --format sarif only. */
const sarif = () => import("../format/sarif.js");
/** The engine and the policy library (RE2, ast-grep), loaded for --offline only. */
export const offlineEngine = () =>
  import("../offline.js")
    .then((offline) => {
      offline.loadAddons();
      return offline;
    })
    .catch((err: Error) => {
      throw engineLoadError(err);
    });

/** Batches in flight at once: enough to keep a server's two stages (gateway, engine) busy. */
export const DEFAULT_CONCURRENCY = 4;

interface EvaluateOptions extends ChangeOptions {
  format: "text" | "json" | "sarif";
  /** A file, or false with --no-baseline. */
  baseline?: string | false;
  offline?: boolean;
  staged?: boolean;
}

/** Whether a failed evaluation fails the build: the organization's require_evaluation_pass (true when it cannot be read). */
export async function blocking(client: VerdictClient): Promise<boolean> {
  try {
    return (await client.getOrganization()).settings.require_evaluation_pass;
  } catch (err) {
    if (err instanceof VerdictApiError && err.status === 403) return true; // a CI key without read:org
    throw err;
  }
}

/** The policies behind the findings, for SARIF rules (help text, links); missing ones (no read:policies) fall back to the findings. */
export async function policiesOf(client: VerdictClient, e: MergedEvaluation): Promise<Map<string, Policy | undefined>> {
  const out = new Map<string, Policy | undefined>();
  for (const id of new Set(e.violations.map((v) => v.policy_id))) {
    try {
      out.set(id, await client.getPolicy(id));
    } catch (err) {
      if (err instanceof VerdictApiError && (err.status === 403 || err.status === 404)) out.set(id, undefined);
      else throw err;
    }
  }
  return out;
}

function retryNote(r: RetryNotice): string {
  return `${r.method} ${r.path.replace(/^https?:\/\/[^/]+/, "")}: rate limited (HTTP ${r.status}); retrying in ${Math.ceil(r.waitMs / 1000)} s`;
}

/** What `evaluate` and `baseline create` send: files (or the change since --base), how, and where. */
export interface ChangeOptions {
  base?: string;
  repository?: string;
  ref?: string;
  policy?: string[];
  concurrency: number;
}

export interface EvaluatedChange {
  /** null: nothing could be sent. */
  evaluation: MergedEvaluation | null;
  /** The directory the files' paths are relative to: the work tree's top, or cwd outside git. */
  root: string;
  /** The files sent. */
  sent: Set<string>;
}

/**
 * The repository's name and the ref an evaluation is recorded under: --repository and --ref, else
 * git's for `root`'s work tree (cwd's directory outside git); "" for what is not to be `ask`ed.
 */
async function recordedAs(ctx: Context, root: string | null, opts: ChangeOptions, ask: boolean) {
  const { cwd, env } = ctx.io;
  const [repository, ref] = await Promise.all([
    opts.repository ?? (ask ? repositoryName(root ?? cwd, root !== null, env) : ""),
    opts.ref ?? (ask ? currentRef(root ?? cwd, root !== null, env) : ""),
  ]);
  return { repository, ref };
}

/**
 * The files of PATHS (or the change since --base), sized, and those skipped (the caller names
 * them on stderr with `skip`, in the order of its own notes). `names` false: the repository's name and the ref are not asked of git (an offline evaluation
 * printed as text shows neither), and the envelope has only what the options give.
 */
async function listChange(ctx: Context, out: Output, paths: string[], opts: ChangeOptions, names = true) {
  const { env, cwd } = ctx.io;
  let root: string | null;
  let base: string;
  let candidates: { path: string; status: "added" | "modified" }[];
  if (opts.base) {
    // The work tree's top is asked of git beside the change (changeSince()).
    const change = await changeSince(cwd, opts.base, paths, env);
    if (!change) throw new CliError("--base needs a git repository (run it inside the work tree)");
    ({ root, files: candidates } = change);
    base = root;
  } else {
    root = gitRoot(cwd);
    const listed = listFiles(root, cwd, paths);
    base = listed.root;
    candidates = listed.files.map((path) => ({ path, status: "modified" as const }));
  }
  // The repository's name and the ref (they never fail), asked while the files are sized.
  const asked = recordedAs(ctx, root, opts, names);
  // The baseline file lists fingerprints, not code: it is not evaluated.
  candidates = candidates.filter((c) => c.path !== BASELINE_PATH);
  const { files, skipped } = sizeFiles(base, candidates);
  const skip = (s: { path: string; reason: string }) => out.note(out.err.dim(`skipped ${s.path}: ${s.reason}`));
  const envelope = { ...(await asked), ...(opts.base ? { base_ref: opts.base } : {}) };
  return { base, files, skip, skipped, envelope };
}

/** Lists, reads and sends the files of PATHS (or the change since --base) in batches, and merges the answers. */
export async function evaluateChange(
  ctx: Context,
  client: VerdictClient,
  out: Output,
  paths: string[],
  opts: ChangeOptions,
): Promise<EvaluatedChange> {
  const { base, files, skip, skipped, envelope: change } = await listChange(ctx, out, paths, opts);
  skipped.forEach(skip);
  const sent = new Set<string>();
  if (files.length === 0) return { evaluation: null, root: base, sent };
  const envelope = { ...change, ...(opts.policy ? { policies: opts.policy } : {}) };
  const read = (f: SizedFile): EncodedFile | null => {
    const r = readFile(base, f);
    if (r && "skipped" in r) skip(r.skipped);
    if (!r || !("file" in r)) return null;
    sent.add(f.path);
    return encodeFile(r.file);
  };
  const parts = await evaluateInBatches(client, envelope, files, read, {
    concurrency: opts.concurrency,
    note: (t) => out.note(t),
  });
  return { evaluation: parts.length ? mergeEvaluations(parts) : null, root: base, sent };
}

/** The change listChange() listed, evaluated in this process by the engine, on the pulled (or built-in) policies. */
async function evaluateChangeOffline(
  listing: Awaited<ReturnType<typeof listChange>>,
  policies: OfflinePolicies,
): Promise<EvaluatedChange> {
  const { evaluateOffline } = await offlineEngine();
  const { base, files, skip, skipped, envelope } = listing;
  skipped.forEach(skip);
  const sent = new Set<string>();
  const read: { path: string; status: string; content: Buffer }[] = [];
  for (const f of files) {
    const r = readFile(base, f);
    if (r && "skipped" in r) skip(r.skipped);
    if (!r || !("file" in r)) continue;
    sent.add(f.path);
    read.push({ path: f.path, status: f.status ?? "modified", content: Buffer.from(r.file.content) });
  }
  return { evaluation: read.length ? evaluateOffline(policies, read, envelope) : null, root: base, sent };
}

/** The policies an offline evaluation runs: those pulled from the configured server (else the built-ins), or `ids` of them. */
async function offlinePolicies(ctx: Context, ids: string[] = []): Promise<OfflinePolicies> {
  const { url } = resolveConfig(ctx.io.env);
  const engine = await offlineEngine();
  return engine.offlinePolicies(engine.readPolicyCache(engine.policyCachePath(ctx.io.env), url), ids);
}

/** The lines the next commit adds (readStaged()) and the work tree's top, asked of git side by side. */
async function stagedChange(ctx: Context, paths: string[]): Promise<{ root: string; slice: CommitSlice }> {
  const { cwd, env } = ctx.io;
  const top = workTreeTop(cwd, env);
  const slice = readStaged(cwd, cwdPathspecs(cwd, paths));
  slice.catch(() => undefined); // awaited below, unless the checks before it fail
  const root = await top;
  if (root === null) throw new CliError("--staged needs a git repository (run it inside the work tree)");
  // A path outside the work tree, or one that is not there (a typo would evaluate nothing and pass).
  pathspecs(root, cwd, paths).forEach((spec, i) => {
    if (!existsSync(join(root, spec))) throw new CliError(`no such file or directory: ${paths[i]}`);
  });
  return { root, slice: await slice };
}

/** Where line `line` of a text made of a file's added lines (composeRounds()) is in that file. */
const placeOf = (text: { origin: { line: number }[] }, line: number): number | undefined => text.origin[line - 1]?.line;

/**
 * The staged lines evaluated by the server: per path, one text of its added lines (a path with
 * more than a request holds goes on in a later round), the findings placed back on the file's
 * lines. No file is sent whole: the baseline's entries are not checked for being fixed.
 */
async function evaluateStagedThere(
  client: VerdictClient,
  out: Output,
  staged: { root: string; slice: CommitSlice },
  envelope: { repository: string; ref: string },
  opts: ChangeOptions,
): Promise<EvaluatedChange> {
  const parts = [];
  const full = { ...envelope, ...(opts.policy ? { policies: opts.policy } : {}) };
  for (const round of composeRounds(staged.slice)) {
    const byPath = new Map(round.map((t) => [t.path, t]));
    const place = <T extends { file: string; line: number }>(list: T[]): T[] =>
      list.flatMap((v) => {
        const text = byPath.get(v.file);
        const line = text && placeOf(text, v.line);
        return line === undefined ? [] : [{ ...v, line }];
      });
    const evaluations = await evaluateInBatches(
      client,
      full,
      round.map((t) => ({ ...t, bytes: t.content.length })),
      (t) => encodeFile({ path: t.path, status: "added", content: t.content }),
      { concurrency: opts.concurrency, note: (t) => out.note(t) },
    );
    for (const e of evaluations)
      parts.push({ ...e, violations: place(e.violations), suppressions: place(e.suppressions) });
  }
  return { evaluation: parts.length ? mergeEvaluations(parts) : null, root: staged.root, sent: new Set() };
}

/** The staged lines evaluated here by the engine, as evaluateStagedThere() answers. */
async function evaluateStagedOffline(
  staged: { root: string; slice: CommitSlice },
  policies: OfflinePolicies,
  envelope: { repository: string; ref: string },
): Promise<EvaluatedChange> {
  const texts = composeRounds(staged.slice).flat();
  if (!texts.length) return { evaluation: null, root: staged.root, sent: new Set() };
  const { evaluateOffline } = await offlineEngine();
  const files = texts.map((t) => ({ path: t.path, status: "added", content: t.content }));
  const evaluation = evaluateOffline(policies, files, envelope, (i, line) => placeOf(texts[i]!, line));
  // (A path with more added lines than one text holds is several texts, and one file.)
  evaluation.summary.total_files = new Set(texts.map((t) => t.path)).size;
  return { evaluation, root: staged.root, sent: new Set() };
}

/** The client of a command that sends evaluations: rate-limit waits (up to a minute) are shown, so a held run does not look stuck. */
export function evaluatingClient(ctx: Context, out: Output): VerdictClient {
  // The short backoffs of 5xx and connection retries are not (an error stays one line).
  return ctx.client({ onRetry: (r) => r.status === 429 && out.note(retryNote(r)) });
}

/** The options `evaluate` and `baseline create` share. */
export function changeOptions(cmd: Command): Command {
  return (
    cmd
      .argument("[paths...]", "files or directories (directories: every file git does not ignore)")
      .option("--base <ref>", "evaluate the files changed between REF and the working tree (git)")
      .option("--repository <owner/repo>", "repository name (default: GITHUB_REPOSITORY, else the origin remote)")
      .option("--ref <ref>", "ref being evaluated (default: the current branch)")
      // One value per option (not variadic): `--policy ID .` must leave `.` to the paths.
      .option("--policy <id>", "run only this policy (repeatable, or comma-separated)", collectList)
      .option(
        "--concurrency <n>",
        "batches sent at once when the change is larger than one request",
        positiveInt,
        DEFAULT_CONCURRENCY,
      )
      .option("--baseline <file>", `the baseline file (default: ${BASELINE_PATH} at the top of the work tree)`)
  );
}

/** The baseline file: --baseline (from cwd), else .verdict/baseline.json under the root. */
export function baselinePath(ctx: Context, root: string, option: string | undefined): string {
  return option ? resolve(ctx.io.cwd, option) : join(root, BASELINE_PATH);
}

/** The baseline in force, if its file exists; a file that cannot be used is an error (never silently ignored). */
function loadBaseline(path: string): Baseline | null {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch {
    return null;
  }
  const b = parseBaseline(text);
  if ("error" in b) throw new CliError(`baseline ${path} cannot be used: ${b.error}`);
  return b;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

/** What --base found in the commits since REF that the final change does not show. */
export interface CommitsSince {
  /** Commits scanned (merges' own diffs left out). */
  commits: number;
  findings: HistoryFinding[];
}

/**
 * The findings in the lines added by the commits between --base and HEAD (a key added in one
 * commit and removed in the next), less those the final change still has (reported with it) and
 * those the baseline accepts.
 */
async function commitsSince(
  ctx: Context,
  by: { client: VerdictClient } | { offline: OfflinePolicies },
  out: Output,
  change: EvaluatedChange,
  paths: string[],
  opts: ChangeOptions,
  accepted: Set<string>,
): Promise<CommitsSince> {
  // A pre-commit hook's --base HEAD: HEAD..HEAD has no commit (no git process asked to list none).
  if (opts.base === "HEAD") return { commits: 0, findings: [] };
  const root = change.root;
  const range = [`${opts.base}..HEAD`];
  const slices = { slice: 500, paths: pathspecs(root, ctx.io.cwd, paths) };
  let scanned: { commits: string[]; findings: HistoryFinding[] };
  if ("client" in by) {
    const envelope = {
      repository: opts.repository ?? (await repositoryName(root, true, ctx.io.env)),
      ref: opts.ref ?? (await currentRef(root, true, ctx.io.env)),
      base_ref: opts.base!,
      ...(opts.policy ? { policies: opts.policy } : {}),
    };
    scanned = await scanRange(by.client, root, range, envelope, {
      ...slices,
      concurrency: opts.concurrency,
      note: (t) => out.note(t),
    });
  } else {
    // Offline: the same texts, scanned here with the policies of the final change.
    const { offlineScanner } = await offlineEngine();
    scanned = await scanRangeHere(() => offlineScanner(by.offline), root, range, slices);
  }
  const inChange = new Set(change.evaluation?.violations.map((v) => v.fingerprint));
  const shown = scanned.findings.filter((f) => !inChange.has(f.fingerprint) && !accepted.has(f.fingerprint));
  return { commits: scanned.commits.length, findings: shown };
}

const sinceNote = (f: HistoryFinding) => `added in commit ${f.commit.slice(0, 10)}, no longer in the change`;

const historyErrors = (h: CommitsSince | undefined) => h?.findings.filter((f) => f.severity === "error").length ?? 0;

function formatHistory(h: CommitsSince, base: string): string {
  const errors = historyErrors(h);
  return [
    `In the ${plural(h.commits, "commit")} since ${base}, no longer in the change:`,
    ...h.findings.map(formatHistoryFinding),
    `${errors ? "failed" : "passed"}: ${plural(h.findings.length, "finding")} (${plural(errors, "error")}) in the commits since ${base}`,
  ].join("\n");
}

export function evaluateCommand(program: Command, ctx: Context): void {
  changeOptions(
    program
      .command("evaluate")
      .description("Evaluate files, or the files changed since a git ref, against the organization's policies"),
  )
    .option("--format <format>", "text, json or sarif (SARIF 2.1.0 for GitHub code scanning)", "text")
    .option("--no-baseline", "report the findings the baseline accepts too")
    .option(
      "--staged",
      "evaluate the lines the next commit adds (git's index against HEAD), as a pre-commit hook checks them",
    )
    .option(
      "--offline",
      "evaluate here, without a network call, on the policies 'verdict policies pull' stored (or the built-ins)",
    )
    .action(async (paths: string[], opts: EvaluateOptions, cmd: Command) => {
      const format = jsonOf(cmd) ? "json" : opts.format;
      if (!["text", "json", "sarif"].includes(format))
        throw new CliError(`--format must be text, json or sarif (got ${format})`);
      if (opts.staged && opts.base)
        throw new CliError("--staged and --base cannot be used together: --staged checks the index against HEAD");
      if (!opts.base && !opts.staged && paths.length === 0)
        throw new CliError(
          "nothing to evaluate: give PATHS, --base REF (e.g. verdict evaluate --base origin/main) or --staged",
        );
      const out = ctx.output(format === "json");
      let client: VerdictClient | null = null;
      let offline: OfflinePolicies | null = null;
      let change: EvaluatedChange;
      if (opts.staged) {
        // git first, as below: it runs while the engine loads (offline) or the client is made.
        const staged = stagedChange(ctx, paths);
        staged.catch(() => undefined);
        const recorded = staged.then((s) => recordedAs(ctx, s.root, opts, !opts.offline || format !== "text"));
        recorded.catch(() => undefined);
        if (opts.offline) {
          offline = await offlinePolicies(ctx, opts.policy);
          out.note(`offline: policy version ${offline.version} (${offline.source})`);
          change = await evaluateStagedOffline(await staged, offline, await recorded);
        } else {
          client = evaluatingClient(ctx, out);
          change = await evaluateStagedThere(client, out, await staged, await recorded, opts);
        }
      } else if (opts.offline) {
        // git is asked first: its processes are forked while this one is small (before the
        // engine's native addons load) and run while the engine loads. Its errors come after
        // the policies' (awaited below). As text, the result names neither the repository nor
        // the ref: git is not asked for them.
        const listing = listChange(ctx, out, paths, opts, format !== "text");
        listing.catch(() => undefined);
        offline = await offlinePolicies(ctx, opts.policy);
        out.note(`offline: policy version ${offline.version} (${offline.source})`);
        change = await evaluateChangeOffline(await listing, offline);
      } else {
        client = evaluatingClient(ctx, out);
        change = await evaluateChange(ctx, client, out, paths, opts);
      }
      const file = opts.baseline === false ? null : baselinePath(ctx, change.root, opts.baseline || undefined);
      const baseline = file ? loadBaseline(file) : null;
      const now = new Date();
      // --base: the commits since REF too, for what the final change no longer shows (by the
      // server, or offline by the engine here).
      const history = opts.base
        ? await commitsSince(
            ctx,
            client ? { client } : { offline: offline! },
            out,
            change,
            paths,
            opts,
            baseline ? acceptedFingerprints(baseline, now) : new Set(),
          )
        : undefined;
      const sarifTool = { version: VERSION, informationUri: client?.baseUrl ?? resolveConfig(ctx.io.env).url };
      if (!change.evaluation) {
        if (!history?.findings.length) out.note("nothing to evaluate: no changed or readable text files");
        if (format === "sarif")
          out.data(
            (await sarif()).toSarif(withFindings(null, history?.findings ?? [], sinceNote), new Map(), sarifTool),
          );
        else if (format === "json") out.data({ evaluation: null, ...(history ? { history } : {}) });
        else if (history?.findings.length) out.line(formatHistory(history, opts.base!));
        if (client && historyErrors(history) && (await blocking(client))) process.exitCode = EXIT.failed;
        return;
      }
      let evaluation = change.evaluation;
      let baselined = 0;
      if (baseline) {
        const applied = applyBaseline(evaluation, baseline, change.sent, now);
        ({ evaluation, baselined } = applied);
        const shown = relative(ctx.io.cwd, file!) || file!;
        if (baselined) out.note(`${plural(baselined, "finding")} accepted by the baseline (${shown}) not shown`);
        for (const e of applied.expired)
          out.note(`baseline entry expired on ${e.expires_at}: ${e.file}:${e.line} ${e.policy_id} is reported again`);
        if (applied.stale.length)
          out.note(
            `${plural(applied.stale.length, "baseline entry")} no longer found (fixed): ${applied.stale.map((e) => `${e.file}:${e.line} ${e.policy_id}`).join(", ")}; run 'verdict baseline create' to drop ${applied.stale.length === 1 ? "it" : "them"}`,
          );
      }
      const failed = !evaluation.passed || historyErrors(history) > 0;
      const blocks = !failed ? true : client ? await blocking(client) : offline!.blocking;

      if (format === "json")
        out.data({ ...evaluation, ...(baseline ? { baselined } : {}), ...(history ? { history } : {}) });
      else if (format === "sarif") {
        const all = withFindings(evaluation, history?.findings ?? [], sinceNote)!;
        out.data((await sarif()).toSarif(all, client ? await policiesOf(client, all) : new Map(), sarifTool));
      } else {
        if (history?.findings.length) out.line(formatHistory(history, opts.base!));
        out.line(formatEvaluation(evaluation, out.c, { blocking: blocks }));
      }
      if (failed && blocks) process.exitCode = EXIT.failed;
    });
}
