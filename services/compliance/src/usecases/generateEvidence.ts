// The MCP tool's evidence request: one framework, the last <n> days.
import type { ComplianceDeps } from "../deps.js";
import type { ReportRecord } from "../repo.js";
import { createReport } from "./createReport.js";

/** The MCP tool's operation: one framework, the last <n> days. */
export async function generateEvidence(
  deps: ComplianceDeps,
  cmd: { organizationId: string; framework: string; format: string; dateRange: string },
): Promise<ReportRecord> {
  return createReport(deps, {
    organizationId: cmd.organizationId,
    frameworks: [cmd.framework],
    format: cmd.format,
    dateRange: cmd.dateRange,
    frameworksField: "framework",
  });
}
