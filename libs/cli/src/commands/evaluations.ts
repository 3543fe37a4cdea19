// verdict evaluations list|get|delete
import type { Command } from "commander";
import type { Context } from "../context.js";
import { formatEvaluation } from "../format/text.js";
import { bool, jsonOf, positiveInt } from "./shared.js";

export function evaluationsCommand(program: Command, ctx: Context): void {
  const cmd = program.command("evaluations").description("List, show and delete evaluations");

  cmd
    .command("list")
    .description("Evaluations, newest first (follows pagination cursors up to --limit)")
    .option("--repository <owner/repo>", "only this repository")
    .option("--status <status>", "pending, completed or failed")
    .option("--passed <bool>", "true or false", bool)
    .option("--since <date>", "ISO 8601 date or date-time")
    .option("--until <date>", "ISO 8601 date or date-time")
    .option("--limit <n>", "how many to show", positiveInt, 20)
    .action(async (opts, c: Command) => {
      const out = ctx.output(jsonOf(c));
      const client = ctx.client();
      const rows = [];
      const query = {
        repository: opts.repository,
        status: opts.status,
        passed: opts.passed,
        since: opts.since,
        until: opts.until,
        limit: Math.min(100, opts.limit),
      };
      for await (const e of client.evaluations(query)) {
        rows.push(e);
        if (rows.length >= opts.limit) break;
      }
      if (out.json) return out.data({ evaluations: rows });
      out.table(
        ["ID", "REPOSITORY", "REF", "STATUS", "RESULT", "ERRORS", "WARNINGS", "CREATED"],
        rows.map((e) => [
          e.id,
          e.repository,
          e.ref,
          e.status,
          e.passed === null ? "-" : e.passed ? out.c.green("passed") : out.c.red("failed"),
          e.summary.errors,
          e.summary.warnings,
          e.created_at,
        ]),
      );
    });

  cmd
    .command("get")
    .description("One evaluation with its findings")
    .argument("<evaluation_id>")
    .action(async (id: string, _o, c: Command) => {
      const out = ctx.output(jsonOf(c));
      const e = await ctx.client().getEvaluation(id);
      if (out.json) return out.data(e);
      out.record([
        ["id", e.id],
        ["repository", e.repository],
        ["ref", e.ref],
        ["base_ref", e.base_ref],
        ["status", e.status],
        ["created_at", e.created_at],
        ["completed_at", e.completed_at],
      ]);
      out.line();
      out.line(formatEvaluation(e, out.c, { blocking: true }));
    });

  cmd
    .command("delete")
    .description("Delete an evaluation")
    .argument("<evaluation_id>")
    .action(async (id: string, _o, c: Command) => {
      const out = ctx.output(jsonOf(c));
      await ctx.client().deleteEvaluation(id);
      if (out.json) return out.data({ deleted: id });
      out.line(`deleted ${id}`);
    });
}
