// Bus consumers: map events to use cases, nothing else (the bus's counterpart of grpc.ts).
import {
  deadLetterTopic,
  TOPICS,
  type CloudEvent,
  type EvaluationCompletedData,
  type PolicyBypassedData,
  type PolicyViolationData,
  type Subscription,
} from "@verdict/bus";
import type { ComplianceDeps } from "./deps.js";
import { failReport } from "./usecases/failReport.js";
import { generateReport } from "./usecases/generateReport.js";
import { projectBypass, projectEvaluation, projectViolation } from "./usecases/project.js";
import type { ReportRequestedData } from "./usecases/createReport.js";

/** The service's consumers: the evidence projection and report generation. */
export async function subscribeCompliance(deps: ComplianceDeps): Promise<Subscription[]> {
  const bus = deps.bus;
  return [
    await bus.subscribe<EvaluationCompletedData>(TOPICS.evaluationCompleted, "compliance", (e) =>
      projectEvaluation(deps, e.data),
    ),
    await bus.subscribe<PolicyViolationData>(TOPICS.policyViolation, "compliance", (e) =>
      projectViolation(deps, e.data),
    ),
    await bus.subscribe<PolicyBypassedData>(TOPICS.policyBypassed, "compliance", (e) => projectBypass(deps, e.data)),
    await bus.subscribe<ReportRequestedData>(TOPICS.reportRequested, "compliance-reports", (e) =>
      generateReport(deps, { organizationId: e.data.organization_id, reportId: e.data.report_id }),
    ),
    // A report whose generation kept failing must not stay "generating" forever.
    await bus.subscribe<{ event: CloudEvent<ReportRequestedData>; error: string }>(
      deadLetterTopic(TOPICS.reportRequested),
      "compliance-reports",
      (e) =>
        failReport(deps, {
          organizationId: e.data.event.data.organization_id,
          reportId: e.data.event.data.report_id,
          reason: `The report could not be generated: ${e.data.error}`,
        }),
    ),
  ];
}
