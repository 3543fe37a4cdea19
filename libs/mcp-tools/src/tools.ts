// Verdict's MCP tools: what an AI assistant may do with Verdict, each a thin call through the SDK
// with an input schema (JSON Schema, from zod) and a description written for the model. Shared
// by `verdict mcp` (stdio) and services/mcp (Streamable HTTP).
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { VerdictApiError, VerdictConnectionError, type Evaluation, type VerdictClient } from "@verdict/sdk";
import { summarizeEvaluation } from "./summaries.js";

export interface ToolOptions {
  /** How long generate_evidence waits for the report before answering `generating`. */
  reportTimeoutMs?: number;
  reportPollMs?: number;
}

function ok(summary: string, data: unknown): CallToolResult {
  return { content: [{ type: "text", text: `${summary}\n\n${JSON.stringify(data, null, 2)}` }] };
}

/** API errors become tool errors the model can read and act on, not protocol errors. */
export function toolError(err: unknown): CallToolResult {
  let text: string;
  if (err instanceof VerdictApiError) {
    const fields = Array.isArray(err.details?.errors) ? ` ${JSON.stringify(err.details.errors)}` : "";
    text = `Verdict answered ${err.status} ${err.code}: ${err.message}${fields}`;
  } else if (err instanceof VerdictConnectionError) text = err.message;
  else text = err instanceof Error ? err.message : String(err);
  return { isError: true, content: [{ type: "text", text }] };
}

const guard =
  <A>(fn: (args: A) => Promise<CallToolResult>) =>
  async (args: A): Promise<CallToolResult> => {
    try {
      return await fn(args);
    } catch (err) {
      return toolError(err);
    }
  };

const SEVERITY = z.enum(["error", "warning"]);
const READ_ONLY = { readOnlyHint: true, openWorldHint: false } as const;

export function registerVerdictTools(server: McpServer, client: VerdictClient, opts: ToolOptions = {}): void {
  server.registerTool(
    "evaluate_files",
    {
      title: "Evaluate files",
      description:
        "Check source files against the organization's Verdict policies (leaked secrets, insecure code, custom rules) and get pass/fail with each violation's file, line, column, policy, message, redacted snippet and fix suggestion. Send the full text of each file you changed or wrote. The evaluation is recorded as compliance evidence.",
      inputSchema: {
        repository: z
          .string()
          .regex(/^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/)
          .describe("Repository as owner/repo, e.g. acme/payments"),
        ref: z.string().min(1).default("main").describe("Branch or ref the files belong to"),
        files: z
          .array(
            z.object({
              path: z.string().min(1).describe("Path in the repository"),
              content: z.string().describe("Full UTF-8 content (at most 1 MiB)"),
            }),
          )
          .min(1)
          .max(1000)
          .describe("Files to check"),
        policies: z.array(z.string()).optional().describe("Run only these policy ids (default: every enabled policy)"),
      },
      annotations: {
        title: "Evaluate files",
        readOnlyHint: false,
        destructiveHint: false,
        idempotentHint: false,
        openWorldHint: false,
      },
    },
    guard(async ({ repository, ref, files, policies }) => {
      let e: Evaluation = await client.createEvaluation({
        repository,
        ref,
        files: files.map((f) => ({ ...f, status: "modified" as const })),
        ...(policies ? { policies } : {}),
      });
      e = await client.waitForEvaluation(e);
      return ok(summarizeEvaluation(e), e);
    }),
  );

  server.registerTool(
    "get_evaluation",
    {
      title: "Get evaluation",
      description: "One evaluation by id (eval_…): status, pass/fail, summary counts and every violation.",
      inputSchema: { evaluation_id: z.string().min(1).describe("The evaluation id, eval_…") },
      annotations: { title: "Get evaluation", ...READ_ONLY },
    },
    guard(async ({ evaluation_id }) => {
      const e = await client.getEvaluation(evaluation_id);
      return ok(summarizeEvaluation(e), e);
    }),
  );

  server.registerTool(
    "list_evaluations",
    {
      title: "List evaluations",
      description:
        "Recent evaluations, newest first, optionally filtered by repository, status, result or time. Returns summaries (use get_evaluation for the violations).",
      inputSchema: {
        repository: z.string().optional().describe("owner/repo"),
        status: z.enum(["pending", "completed", "failed"]).optional(),
        passed: z.boolean().optional().describe("true: only passing; false: only failing"),
        since: z.string().optional().describe("ISO 8601 date or date-time"),
        limit: z.number().int().min(1).max(100).default(20).describe("How many (at most 100)"),
      },
      annotations: { title: "List evaluations", ...READ_ONLY },
    },
    guard(async ({ limit, ...filters }) => {
      const rows = [];
      for await (const e of client.evaluations({ ...filters, limit })) {
        const { violations: _v, suppressions: _s, ...summary } = e;
        rows.push(summary);
        if (rows.length >= limit) break;
      }
      return ok(`${rows.length} evaluations.`, { evaluations: rows });
    }),
  );

  server.registerTool(
    "list_policies",
    {
      title: "List policies",
      description:
        "The organization's policies (built-in and custom): id, name, description, severity, enabled, category and the framework controls each maps to.",
      inputSchema: {
        category: z.string().optional().describe("secrets, security, configuration, custom, …"),
        severity: SEVERITY.optional(),
        enabled: z.boolean().optional(),
      },
      annotations: { title: "List policies", ...READ_ONLY },
    },
    guard(async (q) => {
      const { policies } = await client.listPolicies(q);
      return ok(`${policies.length} policies (${policies.filter((p) => p.enabled).length} enabled).`, { policies });
    }),
  );

  server.registerTool(
    "get_policy",
    {
      title: "Get policy",
      description: "One policy with its detection patterns (RE2), suggestions, settings and documentation link.",
      inputSchema: { policy_id: z.string().min(1).describe("Policy id, e.g. aws-credentials") },
      annotations: { title: "Get policy", ...READ_ONLY },
    },
    guard(async ({ policy_id }) => {
      const p = await client.getPolicy(policy_id);
      return ok(`${p.id}: ${p.name} (${p.severity}, ${p.enabled ? "enabled" : "disabled"}).`, p);
    }),
  );

  server.registerTool(
    "compliance_overview",
    {
      title: "Compliance overview",
      description:
        "Coverage of every compliance framework (NIST SSDF, SOC 2, OWASP ASVS, …) and regulation by the organization's enabled policies, as integer percentages.",
      inputSchema: {},
      annotations: { title: "Compliance overview", ...READ_ONLY },
    },
    guard(async () => {
      const o = await client.complianceOverview();
      return ok(`${o.frameworks.length} frameworks and ${o.regulations.length} regulations.`, o);
    }),
  );

  server.registerTool(
    "get_framework",
    {
      title: "Framework detail",
      description:
        "A framework's controls: which are covered and by which enabled policies. Use it to find gaps before an audit.",
      inputSchema: {
        framework_id: z
          .string()
          .min(1)
          .describe("Framework id from compliance_overview, e.g. nist-ssdf, soc2, owasp-asvs"),
      },
      annotations: { title: "Framework detail", ...READ_ONLY },
    },
    guard(async ({ framework_id }) => {
      const f = await client.framework(framework_id);
      const uncovered = f.controls.filter((c) => !c.covered).length;
      return ok(
        `${f.framework.name} ${f.framework.version}: ${f.coverage}% covered, ${uncovered} of ${f.controls.length} controls uncovered.`,
        f,
      );
    }),
  );

  server.registerTool(
    "get_report",
    {
      title: "Get report",
      description:
        "A compliance report's status (generating, completed, failed) and, once completed, a fresh signed download link.",
      inputSchema: { report_id: z.string().min(1).describe("The report id, report_…") },
      annotations: { title: "Get report", ...READ_ONLY },
    },
    guard(async ({ report_id }) => {
      const r = await client.getReport(report_id);
      return ok(`Report ${r.report_id} is ${r.status}.`, r);
    }),
  );

  server.registerTool(
    "generate_evidence",
    {
      title: "Generate compliance evidence",
      description:
        "Generate a compliance evidence report for one framework over the last N days (OSCAL 1.1.2 ZIP or PDF), wait for it, and return its status and a signed download link (valid for a limited time, needs no API key).",
      inputSchema: {
        framework: z.string().min(1).describe("Framework id, e.g. nist-ssdf, soc2, owasp-asvs"),
        format: z
          .enum(["oscal", "pdf"])
          .default("oscal")
          .describe("oscal: ZIP of catalog, assessment results and POA&M; pdf: a readable report"),
        date_range: z
          .string()
          .regex(/^[1-9]\d{0,3}d$/, "must be <n>d, e.g. 90d")
          .default("90d")
          .describe("The last n days ending today, written <n>d, e.g. 90d"),
      },
      annotations: {
        title: "Generate compliance evidence",
        readOnlyHint: false,
        destructiveHint: false,
        idempotentHint: false,
        openWorldHint: false,
      },
    },
    guard(async ({ framework, format, date_range }) => {
      const created = await client.createReport({ frameworks: [framework], format, date_range });
      let report: typeof created;
      try {
        report = await client.waitForReport(created, {
          timeoutMs: opts.reportTimeoutMs ?? 120_000,
          intervalMs: opts.reportPollMs ?? 1000,
        });
      } catch (err) {
        if (err instanceof VerdictApiError || err instanceof VerdictConnectionError) throw err;
        report = await client.getReport(created.report_id); // still generating after the wait
      }
      const result = {
        report_id: report.report_id,
        status: report.status,
        download_url: report.download_url,
        download_expires_at: report.download_expires_at,
        format: report.format,
        frameworks: report.frameworks,
        date_range: report.date_range,
        failure_reason: report.failure_reason,
      };
      const summary =
        report.status === "completed"
          ? `Report ${report.report_id} is ready: ${report.download_url}`
          : report.status === "failed"
            ? `Report ${report.report_id} failed: ${report.failure_reason ?? "unknown reason"}`
            : `Report ${report.report_id} is still generating; ask again with get_report later.`;
      return { ...ok(summary, result), ...(report.status === "failed" ? { isError: true } : {}) };
    }),
  );
}
