// gRPC handlers: map proto <-> use cases, nothing else.
import { messageFields, type AsyncService } from "@verdict/kit";
import { evaluationV1 } from "@verdict/proto";
import type { EvaluationDeps } from "./deps.js";
import type { EvaluationRecord } from "./repo.js";
import { checkEvaluationRoom } from "./usecases/checkEvaluationRoom.js";
import { createEvaluation } from "./usecases/createEvaluation.js";
import { deleteEvaluation } from "./usecases/deleteEvaluation.js";
import { getEvaluation } from "./usecases/getEvaluation.js";
import { evaluationStats } from "./usecases/evaluationStats.js";
import { listEvaluations } from "./usecases/listEvaluations.js";

type Def = typeof evaluationV1.EvaluationServiceService;

function toEvaluation(e: EvaluationRecord): evaluationV1.Evaluation {
  return {
    ...messageFields(e, [
      "id",
      "status",
      "repository",
      "ref",
      "base_ref",
      "created_at",
      "completed_at",
      "passed",
      "summary",
      "failure_reason",
    ]),
    // As stored: fromPartial gives a field the record predates its default.
    violations: e.violations.map((v) => evaluationV1.Violation.fromPartial(v)),
    // Likewise: a suppression stored before fingerprints has none.
    suppressions: e.suppressions.map((s) => evaluationV1.Suppression.fromPartial(s)),
  };
}

export function evaluationHandlers(deps: EvaluationDeps): AsyncService<Def> {
  return {
    async createEvaluation(req, call) {
      const evaluation = await createEvaluation(deps, {
        organizationId: req.organization_id,
        repository: req.repository,
        ref: req.ref,
        baseRef: req.base_ref,
        files: req.files,
        policies: req.policies,
        bypassReason: req.bypass_reason,
        signal: call.signal,
      });
      return { evaluation: toEvaluation(evaluation) };
    },
    async checkEvaluationRoom(req) {
      const queued = await checkEvaluationRoom(deps, {
        organizationId: req.organization_id,
        files: req.files,
        bytes: req.bytes,
      });
      return { queued };
    },
    async getEvaluation(req) {
      return {
        evaluation: toEvaluation(
          await getEvaluation(deps, { organizationId: req.organization_id, evaluationId: req.evaluation_id }),
        ),
      };
    },
    async getEvaluationStats(req) {
      const stats = await evaluationStats(deps, {
        organizationId: req.organization_id,
        since: req.since,
        until: req.until,
        bucket: req.bucket,
      });
      return stats;
    },
    async listEvaluations(req) {
      const page = await listEvaluations(deps, {
        organizationId: req.organization_id,
        repository: req.repository,
        status: req.status,
        passed: req.passed,
        since: req.since,
        until: req.until,
        limit: req.limit,
        cursor: req.cursor,
      });
      return {
        evaluations: page.evaluations.map(toEvaluation),
        next_cursor: page.next_cursor,
        has_more: page.has_more,
      };
    },
    async deleteEvaluation(req) {
      await deleteEvaluation(deps, { organizationId: req.organization_id, evaluationId: req.evaluation_id });
      return {};
    },
  };
}
