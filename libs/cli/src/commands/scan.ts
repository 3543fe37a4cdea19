// verdict scan history [RANGE…]: every commit's added lines since the repository began (or in
// RANGE, git log's revision arguments), each blob once, sent in batches like `evaluate` (or, with
// --offline, scanned here by the engine), and the findings with the commit, author, date, file and
// line that added them. Commits go in slices;
// after each, the progress is saved (.verdict/history-scan.json), so a run that stopped resumes
// where it was: the file is removed when the scan completes.
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { Command } from "commander";
import type { VerdictClient } from "@verdict/sdk";
import { acceptedFingerprints, BASELINE_PATH, parseBaseline } from "../baseline.js";
import { policyCachePath, resolveConfig } from "../config.js";
import type { Context } from "../context.js";
import { CliError, EXIT } from "../errors.js";
import { gitRoot, repositoryName } from "../git.js";
import { commitList, readSlices } from "../history.js";
import { defaultScanThreads, offlineThreads } from "../scanThreads.js";
import {
  evaluateSlice,
  formatHistoryFinding,
  scanSliceHere,
  scanSliceThere,
  sortFindings,
  withFindings,
  type HistoryFinding,
  type TextScanner,
} from "../historyScan.js";
import { VERSION } from "../version.js";
import { DEFAULT_CONCURRENCY, evaluatingClient, offlineEngine, policiesOf } from "./evaluate.js";
import { collectList, jsonOf, positiveInt, selectPolicies } from "./shared.js";

export const STATE_PATH = ".verdict/history-scan.json";

interface State {
  version: 1;
  range: string[];
  /** What scanned: absent for the server, `offline <policy version>` for the engine here. */
  scanner?: string;
  /** The policies asked for (--policy ids, `category:` and --category names); absent: every policy. */
  policies?: string[];
  /** Commits scanned, in the order of the list; `last` is the last of them. */
  done: number;
  last: string;
  blobs: string[];
  findings: HistoryFinding[];
}

interface ScanOptions {
  slice: number;
  concurrency: number;
  repository?: string;
  restart?: boolean;
  offline?: boolean;
  threads?: number;
  policy?: string[];
  category?: string[];
  everyPolicy?: boolean;
  format: string;
}

/**
 * What `scan history` runs unless told: the secrets policies. A secret stays readable in every
 * clone after the commit that removes it, so it is found in the history; code or configuration
 * that was changed since no longer runs, and the working tree's is checked by `evaluate`.
 */
export const HISTORY_CATEGORY = "secrets";

function readState(
  path: string,
  range: string[],
  scanner: string | undefined,
  policies: string[] | undefined,
  shas: string[],
): State | null {
  let s: State;
  try {
    s = JSON.parse(readFileSync(path, "utf8")) as State;
  } catch {
    return null;
  }
  // Only the same scan, on a history that still has the commits it did.
  const same =
    s.version === 1 &&
    JSON.stringify(s.range) === JSON.stringify(range) &&
    s.scanner === scanner &&
    JSON.stringify(s.policies) === JSON.stringify(policies) &&
    shas[s.done - 1] === s.last;
  return same ? s : null;
}

/** The fingerprints a baseline file accepts now (none without the file). */
function acceptedAt(path: string): Set<string> {
  if (!existsSync(path)) return new Set();
  const b = parseBaseline(readFileSync(path, "utf8"));
  if ("error" in b) throw new CliError(`baseline ${path} cannot be used: ${b.error}`);
  return acceptedFingerprints(b, new Date());
}

/** Starts `slices` now (git spawned, its first slice read ahead) and yields each slice in turn later. */
function startNow<T>(slices: AsyncGenerator<T>): AsyncGenerator<T> {
  const first = slices.next();
  first.catch(() => undefined);
  return (async function* () {
    const r = await first;
    if (r.done) return;
    yield r.value;
    yield* slices;
  })();
}

const historyNote = (f: HistoryFinding) =>
  `added in commit ${f.commit.slice(0, 10)} by ${f.author} on ${f.date.slice(0, 10)}`;

export function scanCommands(program: Command, ctx: Context): void {
  const scan = program.command("scan").description("Scan more than the working tree: a repository's history");
  scan
    .command("history")
    .description("Evaluate every commit's added lines (each blob once), oldest first; resumes a scan that stopped")
    .argument("[range...]", "git log revision arguments, e.g. main~100..main or --all after --", ["HEAD"])
    .option("--slice <n>", "commits read and sent per step (the progress is saved after each)", positiveInt, 500)
    .option("--concurrency <n>", "batches sent at once", positiveInt, DEFAULT_CONCURRENCY)
    .option("--repository <owner/repo>", "repository name (default: GITHUB_REPOSITORY, else the origin remote)")
    .option("--restart", "ignore the progress of a scan that stopped, and start again")
    .option(
      "--offline",
      "scan here, without a network call, on the policies 'verdict policies pull' stored (or the built-ins)",
    )
    .option("--threads <n>", "with --offline: engine threads (default: one per core but one, 1 to 4)", positiveInt)
    .option("--policy <id>", "run only this policy (repeatable, or comma-separated)", collectList)
    .option(
      "--category <name>",
      `run only the policies of this category (repeatable, or comma-separated; default: ${HISTORY_CATEGORY})`,
      collectList,
    )
    .option("--every-policy", "run every policy: insecure code and configuration too, not only the secrets")
    .option("--format <format>", "text, json or sarif (SARIF 2.1.0: a result per finding, naming its commit)", "text")
    .action(async (range: string[], opts: ScanOptions, cmd: Command) => {
      const format = jsonOf(cmd) ? "json" : opts.format;
      if (!["text", "json", "sarif"].includes(format))
        throw new CliError(`--format must be text, json or sarif (got ${format})`);
      if (opts.everyPolicy && (opts.policy?.length || opts.category?.length))
        throw new CliError("--every-policy runs every policy: leave out --policy and --category");
      const defaulted = !opts.everyPolicy && !opts.policy?.length && !opts.category?.length;
      const category = defaulted ? [HISTORY_CATEGORY] : (opts.category ?? []);
      const root = gitRoot(ctx.io.cwd);
      if (!root) throw new CliError("scan history needs a git repository (run it inside the work tree)");
      const out = ctx.output(format === "json");
      if (defaulted) out.note(`policies: the ${HISTORY_CATEGORY} category (--every-policy runs them all)`);
      const statePath = join(root, STATE_PATH);
      // git lists the commits and, for a scan with nothing to resume, begins reading them while
      // the engine's threads (or the server) get the policies ready.
      const listing = commitList(root, range);
      listing.catch(() => undefined);
      const fresh =
        opts.restart || !existsSync(statePath)
          ? listing.then((all) => startNow(readSlices(root, all, opts.slice, new Set())))
          : undefined;
      fresh?.catch(() => undefined);
      let client: VerdictClient | null = null;
      let scanHere: TextScanner | null = null;
      let thread: ReturnType<typeof offlineThreads> = null;
      let scanner: string | undefined;
      /** Online: the ids sent with each evaluation ([]: every policy). */
      let chosen: string[] = [];
      if (opts.offline) {
        const ask = {
          cachePath: policyCachePath(ctx.io.env),
          url: resolveConfig(ctx.io.env).url,
          ids: opts.policy ?? [],
          categories: category,
        };
        // The engine on threads of their own, which resolve the policies themselves (here when
        // there are none: the single executable).
        thread = offlineThreads(ask, opts.threads ?? defaultScanThreads());
        let policies: { version: string; source: string };
        if (thread) policies = await thread.ready;
        else {
          const { offlinePolicies, offlineScanner, readPolicyCache } = await offlineEngine();
          const resolved = await offlinePolicies(readPolicyCache(ask.cachePath, ask.url), ask.ids, ask.categories);
          scanHere = offlineScanner(resolved);
          policies = resolved;
        }
        out.note(`offline: policy version ${policies.version} (${policies.source})`);
        scanner = `offline ${policies.version}`;
      } else {
        client = evaluatingClient(ctx, out);
        chosen = category.length
          ? selectPolicies((await client.listPolicies()).policies, opts.policy, category)
          : (opts.policy ?? []);
      }
      // What was asked for, as the saved progress names it: a resumed scan runs the same policies.
      const asked = [...(opts.policy ?? []), ...category.map((c) => `category:${c}`)];
      const policiesAsked = asked.length ? asked : undefined;
      let shas: string[];
      try {
        shas = await listing;
      } catch (err) {
        throw new CliError(`git cannot list ${range.join(" ")}: ${(err as Error).message.split("\n")[0]}`);
      }
      const resumed = opts.restart ? null : readState(statePath, range, scanner, policiesAsked, shas);
      const state: State = resumed ?? {
        version: 1,
        range,
        ...(scanner ? { scanner } : {}),
        ...(policiesAsked ? { policies: policiesAsked } : {}),
        done: 0,
        last: "",
        blobs: [],
        findings: [],
      };
      if (resumed) out.note(`resuming: ${resumed.done} of ${shas.length} commits already scanned`);
      const blobs = new Set(state.blobs);
      const repository = client ? (opts.repository ?? (await repositoryName(root, true, ctx.io.env))) : "";

      const envelope = { repository, ref: "history", ...(chosen.length ? { policies: chosen } : {}) };
      const sliceOpts = { concurrency: opts.concurrency, note: (t: string) => out.note(t) };
      // One git log for the commits left, read as it streams: the next slices are read while the
      // current one is evaluated. The progress saved after a slice names the blobs seen up to it.
      // Offline on threads, the next slice's texts are handed to them before the current slice's
      // last ones are done (no thread waits at a slice's end); progress is still saved in order.
      const inFlight: { part: number; findings: Promise<HistoryFinding[]>; blobs: string[] }[] = [];
      const saveNext = async () => {
        const { part, findings, blobs: seen } = inFlight.shift()!;
        state.findings.push(...(await findings));
        state.done += part;
        state.last = shas[state.done - 1]!;
        for (const blob of seen) state.blobs.push(blob);
        // Written whole, then renamed: a run stopped mid-write leaves the previous progress.
        mkdirSync(dirname(statePath), { recursive: true });
        writeFileSync(`${statePath}.tmp`, JSON.stringify(state));
        renameSync(`${statePath}.tmp`, statePath);
        if (shas.length > opts.slice) out.note(`scanned ${state.done} of ${shas.length} commits`);
      };
      let read = state.done;
      try {
        const slices = fresh ? await fresh : readSlices(root, shas.slice(state.done), opts.slice, blobs);
        for await (const slice of slices) {
          const part = slice.commits.length;
          if (slice.commits[part - 1]?.sha !== shas[read + part - 1])
            throw new CliError(`git log did not list the commits of ${range.join(" ")} in order: run the scan again`);
          read += part;
          const findings = thread
            ? scanSliceThere(thread.scan, slice)
            : scanHere
              ? scanSliceHere(scanHere, slice)
              : evaluateSlice(client!, slice, envelope, sliceOpts);
          findings.catch(() => undefined); // awaited in turn by saveNext(), which reports a failure
          inFlight.push({ part, findings, blobs: slice.blobs });
          if (inFlight.length >= (thread ? 2 : 1)) await saveNext();
        }
        while (inFlight.length) await saveNext();
      } finally {
        await thread?.close();
      }
      rmSync(statePath, { force: true });

      // Oldest commit first; findings the baseline accepts (the same value in the same file) left out.
      const sorted = sortFindings(state.findings, shas);
      const accepted = acceptedAt(join(root, BASELINE_PATH));
      const findings = sorted.filter((f) => !accepted.has(f.fingerprint));
      const baselined = sorted.length - findings.length;
      if (baselined) out.note(`${baselined} findings accepted by the baseline (${BASELINE_PATH}) not shown`);
      const errors = findings.filter((f) => f.severity === "error").length;
      if (format === "json") out.data({ commits: shas.length, findings, baselined });
      else if (format === "sarif") {
        const e = withFindings(null, findings, historyNote);
        const { toSarif } = await import("../format/sarif.js");
        out.data(
          toSarif(e, e && client ? await policiesOf(client, e) : new Map(), {
            version: VERSION,
            informationUri: client?.baseUrl ?? resolveConfig(ctx.io.env).url,
          }),
        );
      } else {
        for (const f of findings) out.line(formatHistoryFinding(f));
        out.line(
          `${errors ? "failed" : "passed"}: ${findings.length} findings (${errors} errors) in ${shas.length} commits`,
        );
      }
      if (errors) process.exitCode = EXIT.failed;
    });
}
