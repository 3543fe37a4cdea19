// verdict compliance overview|framework, verdict reports generate|get|download|verify
import { createHash } from "node:crypto";
import { writeFileSync } from "node:fs";
import { resolve } from "node:path";
import type { Command } from "commander";
import type { Report, VerdictClient } from "@verdict/sdk";
import type { Context, Output } from "../context.js";
import { CliError } from "../errors.js";
import { collect, jsonOf } from "./shared.js";
import { verifyReportCommand } from "./verifyReport.js";

function bar(pct: number, width = 20): string {
  const full = Math.round((pct / 100) * width);
  return "█".repeat(full) + "░".repeat(width - full);
}

/** Waits for a report, showing progress on stderr (one updating line on a terminal). */
async function waitWithProgress(client: VerdictClient, report: Report, out: Output, tty: boolean): Promise<Report> {
  let last = "";
  const done = await client.waitForReport(report, {
    onProgress: (r, ms) => {
      const line = `report ${r.report_id}: ${r.status} (${Math.round(ms / 1000)}s)`;
      if (tty) process.stderr.write(`\r${line}`);
      else if (r.status !== last) out.note(line);
      last = r.status;
    },
  });
  if (tty) process.stderr.write("\n");
  return done;
}

async function save(client: VerdictClient, r: Report, path: string, cwd: string, out: Output): Promise<string> {
  if (!r.download_url) throw new CliError(`report ${r.report_id} has no download link (status ${r.status})`);
  const file = await client.downloadReport(r.download_url);
  const target = resolve(cwd, path);
  writeFileSync(target, file.content);
  out.note(`saved ${file.content.length} bytes to ${path}`);
  if (r.sha256 && createHash("sha256").update(file.content).digest("hex") !== r.sha256)
    throw new CliError(`the file saved to ${path} does not have the report's SHA-256 ${r.sha256}: download it again`);
  // The detached signature beside it, where `verdict reports verify` and openssl look for it.
  if (r.signature) {
    writeFileSync(`${target}.sig`, Buffer.from(r.signature, "base64"));
    out.note(`saved its Ed25519 signature to ${path}.sig (verdict reports verify ${path})`);
  }
  return target;
}

function showReport(out: Output, r: Report, saved?: string): void {
  if (out.json) return out.data(saved ? { ...r, saved_to: saved } : r);
  out.record([
    ["report_id", r.report_id],
    [
      "status",
      r.status === "completed" ? out.c.green(r.status) : r.status === "failed" ? out.c.red(r.status) : r.status,
    ],
    ["frameworks", r.frameworks],
    ["format", r.format],
    ["date_range", `${r.date_range.start} .. ${r.date_range.end}`],
    ["download_url", r.download_url],
    ["expires_at", r.download_expires_at],
    ["failure_reason", r.failure_reason],
    ["sha256", r.sha256],
    ["signature", r.signature],
    ["public_key_url", r.signature ? r.public_key_url : null],
  ]);
}

export function complianceCommands(program: Command, ctx: Context): void {
  const comp = program.command("compliance").description("Coverage of compliance frameworks by the enabled policies");
  comp.command("overview", { isDefault: true }).action(async (_o, c: Command) => {
    const out = ctx.output(jsonOf(c));
    const o = await ctx.client().complianceOverview();
    if (out.json) return out.data(o);
    out.table(
      ["FRAMEWORK", "NAME", "COVERAGE", "", "CONTROLS"],
      o.frameworks.map((f) => [
        f.id,
        f.name,
        `${f.coverage}%`,
        out.c.green(bar(f.coverage)),
        `${f.controls.covered}/${f.controls.total}`,
      ]),
    );
    out.line();
    out.table(
      ["REGULATION", "NAME", "COVERAGE", ""],
      o.regulations.map((r) => [r.id, r.name, `${r.coverage}%`, out.c.green(bar(r.coverage))]),
    );
  });
  comp
    .command("framework")
    .argument("<framework_id>", "e.g. nist-ssdf, soc2, owasp-asvs")
    .option("--uncovered", "only controls no enabled policy covers")
    .action(async (id: string, opts: { uncovered?: boolean }, c: Command) => {
      const out = ctx.output(jsonOf(c));
      const f = await ctx.client().framework(id);
      if (out.json) return out.data(f);
      out.line(`${out.c.bold(f.framework.name)} ${f.framework.version}: ${f.coverage}% covered`);
      const controls = opts.uncovered ? f.controls.filter((x) => !x.covered) : f.controls;
      out.table(
        ["CONTROL", "COVERED", "POLICIES", "NAME"],
        controls.map((x) => [x.id, x.covered ? out.c.green("yes") : out.c.red("no"), x.policies.join(","), x.name]),
      );
    });

  const reports = program.command("reports").description("Compliance evidence reports (PDF or OSCAL 1.1.2)");
  reports
    .command("generate")
    .requiredOption("--framework <id>", "framework id (repeatable)", collect)
    .option("--format <format>", "pdf or oscal", "pdf")
    .option("--range <Nd>", "the last N days, e.g. 90d", "90d")
    .option("--from <date>", "start date YYYY-MM-DD (with --to instead of --range)")
    .option("--to <date>", "end date YYYY-MM-DD")
    .option("--wait", "wait until the report is ready, showing progress")
    .option("--out <file>", "save the report file (implies --wait)")
    .action(
      async (
        opts: {
          framework: string[];
          format: "pdf" | "oscal";
          range: string;
          from?: string;
          to?: string;
          wait?: boolean;
          out?: string;
        },
        c: Command,
      ) => {
        const out = ctx.output(jsonOf(c));
        if ((opts.from === undefined) !== (opts.to === undefined)) throw new CliError("--from and --to go together");
        const client = ctx.client();
        let r = await client.createReport({
          frameworks: opts.framework,
          format: opts.format,
          date_range: opts.from && opts.to ? { start: opts.from, end: opts.to } : opts.range,
        });
        let saved: string | undefined;
        if (opts.wait || opts.out) {
          r = await waitWithProgress(client, r, out, Boolean(ctx.io.stderr.isTTY));
          if (r.status === "failed")
            throw new CliError(`report ${r.report_id} failed: ${r.failure_reason ?? "unknown reason"}`);
          if (opts.out) saved = await save(client, r, opts.out, ctx.io.cwd, out);
        }
        showReport(out, r, saved);
      },
    );
  reports
    .command("get")
    .argument("<report_id>")
    .action(async (id: string, _o, c: Command) => showReport(ctx.output(jsonOf(c)), await ctx.client().getReport(id)));
  reports
    .command("download")
    .argument("<report_id>")
    .requiredOption("--out <file>", "where to save it")
    .action(async (id: string, opts: { out: string }, c: Command) => {
      const out = ctx.output(jsonOf(c));
      const client = ctx.client();
      const r = await client.getReport(id);
      const saved = await save(client, r, opts.out, ctx.io.cwd, out);
      if (out.json) out.data({ ...r, saved_to: saved });
    });
  verifyReportCommand(reports, ctx);
}
