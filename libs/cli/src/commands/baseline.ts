// verdict baseline create [PATHS…]: evaluates the files (every file git does not ignore, by
// default) and writes the findings as accepted to .verdict/baseline.json, so `verdict evaluate`
// reports only new ones. The file holds fingerprints, policies, files and lines: never a secret,
// never a snippet. Commit it; make it again to drop entries that were fixed.
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, relative } from "node:path";
import type { Command } from "commander";
import { baselineOf } from "../baseline.js";
import type { Context } from "../context.js";
import { CliError } from "../errors.js";
import { gitRoot } from "../git.js";
import { baselinePath, changeOptions, evaluateChange, evaluatingClient, type ChangeOptions } from "./evaluate.js";
import { jsonOf } from "./shared.js";

interface BaselineOptions extends ChangeOptions {
  baseline?: string;
  expires?: number;
}

/** --expires DAYS: the entries stop applying that many days from now. */
function days(value: string): number {
  const n = Number(value.replace(/d$/, ""));
  if (!Number.isInteger(n) || n < 1) throw new CliError(`--expires must be a number of days, e.g. 90d (got ${value})`);
  return n;
}

export function baselineCommands(program: Command, ctx: Context): void {
  const baseline = program
    .command("baseline")
    .description("Accept the findings a repository already has, so that only new ones are reported");
  changeOptions(
    baseline
      .command("create")
      .description(
        "Evaluate the files (default: the whole work tree) and write their findings to the baseline file (no secret values)",
      ),
  )
    .option("--expires <days>", "the entries stop applying after this many days (e.g. 90d)", days)
    .action(async (paths: string[], opts: BaselineOptions, cmd: Command) => {
      const out = ctx.output(jsonOf(cmd));
      const client = evaluatingClient(ctx, out);
      // No PATHS: the whole work tree, from any directory in it.
      const all = [gitRoot(ctx.io.cwd) ?? "."];
      const change = await evaluateChange(ctx, client, out, opts.base || paths.length ? paths : all, opts);
      const evaluation = change.evaluation;
      if (evaluation && evaluation.violations.length < evaluation.summary.total_violations)
        throw new CliError(
          `the evaluation kept ${evaluation.violations.length} of ${evaluation.summary.total_violations} findings: baseline fewer files at a time (PATHS)`,
        );
      const now = new Date();
      const expiresAt = opts.expires ? new Date(now.getTime() + opts.expires * 86_400_000) : undefined;
      const made = baselineOf(evaluation?.violations ?? [], now, expiresAt);
      const file = baselinePath(ctx, change.root, opts.baseline);
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, JSON.stringify(made, null, 2) + "\n");
      const findings = made.findings.reduce((n, e) => n + e.count, 0);
      if (out.json) out.data({ path: file, findings, entries: made.findings.length });
      else
        out.line(
          `wrote ${relative(ctx.io.cwd, file) || file}: ${findings} ${findings === 1 ? "finding" : "findings"} accepted (${made.findings.length} ${made.findings.length === 1 ? "entry" : "entries"})`,
        );
    });
}
