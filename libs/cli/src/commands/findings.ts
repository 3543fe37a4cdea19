// verdict findings list|triage
import type { Command } from "commander";
import type { Context } from "../context.js";
import { jsonOf, positiveInt } from "./shared.js";

type State = "open" | "fixed" | "suppressed" | "false_positive" | "accepted_risk";

export function findingsCommand(program: Command, ctx: Context): void {
  const cmd = program.command("findings").description("Findings across evaluations, and their triage");

  cmd
    .command("list")
    .description("Findings with their states, most recently seen first")
    .option("--repository <owner/repo>", "only this repository")
    .option("--state <state>", "open, fixed, suppressed, false_positive or accepted_risk")
    .option("--since <date>", "seen in evaluations since this ISO 8601 date (default: 90 days ago)")
    .option("--limit <n>", "how many to show (at most 500)", positiveInt, 100)
    .action(async (opts, c: Command) => {
      const out = ctx.output(jsonOf(c));
      const res = await ctx.client().listFindings({
        repository: opts.repository,
        state: opts.state as State | undefined,
        since: opts.since,
        limit: Math.min(500, opts.limit),
      });
      if (out.json) return out.data(res);
      out.table(
        ["ID", "STATE", "REPOSITORY", "REF", "LOCATION", "POLICY", "LAST SEEN"],
        res.findings.map((f) => [
          f.id,
          f.state === "open" ? out.c.red(f.state) : f.state,
          f.repository,
          f.ref,
          `${f.file}:${f.line}`,
          f.policy_id,
          f.last_seen_at,
        ]),
      );
    });

  cmd
    .command("triage")
    .description("Mark a finding a false positive or an accepted risk (with a reason), or open it again")
    .argument("<finding_id>")
    .requiredOption("--state <state>", "false_positive, accepted_risk or open")
    .option("--reason <text>", "why (required for false_positive and accepted_risk)")
    .option("--expires <date-time>", "when an accepted risk reopens (ISO 8601, required for accepted_risk)")
    .action(async (id: string, opts: { state: string; reason?: string; expires?: string }, c: Command) => {
      const out = ctx.output(jsonOf(c));
      const f = await ctx.client().updateFinding(id, {
        state: opts.state as "open" | "false_positive" | "accepted_risk",
        ...(opts.reason !== undefined ? { reason: opts.reason } : {}),
        ...(opts.expires !== undefined ? { expires_at: opts.expires } : {}),
      });
      if (out.json) return out.data(f);
      out.line(
        `${f.id} is ${f.state}${f.triage_expires_at ? ` until ${f.triage_expires_at}` : ""}${f.triage_reason ? `: ${f.triage_reason}` : ""}`,
      );
    });
}
