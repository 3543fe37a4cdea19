// gRPC handlers: map proto <-> use cases, nothing else.
import { commandOf, messageFields, type AsyncService } from "@verdict/kit";
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
      // Aborted when the client is gone: a synchronous scan stops.
      const evaluation = await createEvaluation(deps, { ...commandOf(req), signal: call.signal });
      return { evaluation: toEvaluation(evaluation) };
    },
    async checkEvaluationRoom(req) {
      return { queued: await checkEvaluationRoom(deps, commandOf(req)) };
    },
    async getEvaluation(req) {
      return { evaluation: toEvaluation(await getEvaluation(deps, commandOf(req))) };
    },
    async getEvaluationStats(req) {
      return evaluationStats(deps, commandOf(req));
    },
    async listEvaluations(req) {
      const page = await listEvaluations(deps, commandOf(req));
      return {
        evaluations: page.evaluations.map(toEvaluation),
        next_cursor: page.next_cursor,
        has_more: page.has_more,
      };
    },
    async deleteEvaluation(req) {
      await deleteEvaluation(deps, commandOf(req));
      return {};
    },
  };
}
