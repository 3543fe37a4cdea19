// verdict hook pre-receive: push protection on a self-hosted git server (plain git, Gitea,
// GitLab server hooks; libs/cli/hooks/pre-receive runs it). Git gives the hook the pushed refs
// on stdin (`<old> <new> <ref>` per line) before it updates any of them; the commits the push
// brings (reachable from a new tip and from no existing ref: new branches and force-pushes
// included) are scanned as `scan history` scans them, and a blocking finding rejects the push
// with its commit, file and line. `git push -o verdict-bypass="reason"` lets it through: the
// findings are sent with the reason and recorded as bypass events.
import { basename } from "node:path";
import type { Command } from "commander";
import type { Context, Output } from "../context.js";
import { CliError, EXIT } from "../errors.js";
import { commitList } from "../history.js";
import { formatHistoryFinding, scanSlice, sortFindings, type HistoryFinding } from "../historyScan.js";
import { blocking, DEFAULT_CONCURRENCY, evaluatingClient } from "./evaluate.js";
import { positiveInt } from "./shared.js";

export const BYPASS_OPTION = "verdict-bypass";
const ZERO = /^0+$/;
/** The API's longest bypass reason. */
const MAX_REASON = 500;

interface HookOptions {
  repository?: string;
  concurrency: number;
  slice: number;
}

/** The pushed refs, from the hook's stdin. */
export function parseUpdates(text: string): { old: string; new: string; ref: string }[] {
  return text
    .split("\n")
    .map((l) => l.trim().split(/\s+/))
    .filter((f) => f.length === 3)
    .map(([old, next, ref]) => ({ old: old!, new: next!, ref: ref! }));
}

/** The push options git hands the hook (GIT_PUSH_OPTION_COUNT, GIT_PUSH_OPTION_<i>). */
export function pushOptions(env: NodeJS.ProcessEnv): string[] {
  const n = Number(env.GIT_PUSH_OPTION_COUNT ?? 0);
  return Array.from({ length: Number.isInteger(n) ? n : 0 }, (_, i) => env[`GIT_PUSH_OPTION_${i}`] ?? "");
}

/** The reason of `-o verdict-bypass=REASON` (the last one given), or null. */
export function bypassReason(options: string[]): string | null {
  const given = options.filter((o) => o.startsWith(`${BYPASS_OPTION}=`)).map((o) => o.slice(BYPASS_OPTION.length + 1));
  const reason = given.at(-1)?.trim();
  return reason ? reason : null;
}

/** owner/name: the server's own name for the repository (GitLab, Gitea), else local/<directory without .git>. */
export function hookRepository(dir: string, env: NodeJS.ProcessEnv): string {
  if (env.GL_PROJECT_PATH && /^[^/]+\/.+$/.test(env.GL_PROJECT_PATH))
    return env.GL_PROJECT_PATH.replace(/\/(?=.*\/)/g, "-").replace(/[^A-Za-z0-9_./-]/g, "-");
  if (env.GITEA_REPO_USER_NAME && env.GITEA_REPO_NAME) return `${env.GITEA_REPO_USER_NAME}/${env.GITEA_REPO_NAME}`;
  const name = basename(dir)
    .replace(/\.git$/, "")
    .replace(/[^A-Za-z0-9_.-]/g, "-");
  return `local/${name || "repository"}`;
}

/** Who pushed, as the server says (GitLab, Gitea), else the server's user. */
const pusher = (env: NodeJS.ProcessEnv) => env.GL_USERNAME || env.GITEA_PUSHER_NAME || env.USER || "unknown";

function rejection(out: Output, findings: HistoryFinding[], errors: number): void {
  out.note(`verdict: push rejected: ${errors} blocking finding${errors === 1 ? "" : "s"} in the commits pushed`);
  for (const f of findings) out.note(formatHistoryFinding(f));
  out.note(
    [
      "Remove the secret from the commits that added it (rewrite them: git rebase -i, or git commit --amend), then push again.",
      `To push anyway, give a reason; it is recorded as a bypass event: git push -o ${BYPASS_OPTION}="why this is safe" ...`,
    ].join("\n"),
  );
}

export function hookCommands(program: Command, ctx: Context): void {
  const hook = program.command("hook").description("Git hooks for Verdict's push protection");
  hook
    .command("pre-receive")
    .description(
      `Run as a git server's pre-receive hook: reject a push whose new commits add a blocking finding (bypass: git push -o ${BYPASS_OPTION}="reason")`,
    )
    .option("--repository <owner/repo>", "repository name (default: GitLab's or Gitea's, else local/<directory>)")
    .option("--slice <n>", "commits read and sent per step", positiveInt, 500)
    .option("--concurrency <n>", "batches sent at once", positiveInt, DEFAULT_CONCURRENCY)
    .action(async (opts: HookOptions) => {
      const { env, cwd } = ctx.io;
      const out = ctx.output(false);
      let input = "";
      for await (const chunk of process.stdin) input += String(chunk);
      const updates = parseUpdates(input).filter((u) => !ZERO.test(u.new)); // deletions add nothing
      if (!updates.length) return;
      // Pushed tips, less everything the repository already has: the commits this push brings.
      let shas: string[];
      try {
        shas = await commitList(cwd, [...updates.map((u) => u.new), "--not", "--all"]);
      } catch (err) {
        throw new CliError(`git cannot list the pushed commits: ${(err as Error).message.split("\n")[0]}`);
      }
      if (!shas.length) return;
      const reason = bypassReason(pushOptions(env));
      const refs = updates.map((u) => u.ref);
      const envelope = {
        repository: opts.repository ?? hookRepository(cwd, env),
        ref: (refs.length === 1 ? refs[0]! : refs.join(" ")).slice(0, 255),
        ...(reason
          ? { bypass_reason: `push of ${refs.join(", ")} by ${pusher(env)}: ${reason}`.slice(0, MAX_REASON) }
          : {}),
      };
      const client = evaluatingClient(ctx, out);
      const blobs = new Set<string>();
      const findings: HistoryFinding[] = [];
      const bypassed: string[] = [];
      for (let i = 0; i < shas.length; i += opts.slice)
        findings.push(
          ...(await scanSlice(
            client,
            cwd,
            shas.slice(i, i + opts.slice),
            blobs,
            envelope,
            { concurrency: opts.concurrency, note: (t) => out.note(t) },
            (e) => e.suppressions.some((s) => s.reason === envelope.bypass_reason) && bypassed.push(e.id),
          )),
        );
      const sorted = sortFindings(findings, shas);
      const errors = sorted.filter((f) => f.severity === "error").length;
      if (bypassed.length)
        out.note(`verdict: findings bypassed (${reason}); recorded as bypass events in ${bypassed.join(" ")}`);
      if (errors && (await blocking(client))) {
        rejection(out, sorted, errors);
        process.exitCode = EXIT.failed;
        return;
      }
      for (const f of sorted) out.note(formatHistoryFinding(f));
      out.note(`verdict: ${shas.length} commit${shas.length === 1 ? "" : "s"} checked, no blocking finding`);
    });
}
