import type { z } from "zod";
import type { evaluationV1 } from "@verdict/proto";
import { route } from "../http/route.js";
import { evaluationJson } from "../http/mappers.js";
import {
  CreateEvaluationSchema,
  EvaluationListSchema,
  EvaluationSchema,
  IdParam,
  refuseImpossibleDays,
  ListEvaluationsQuery,
  EvaluationStatsQuery,
  EvaluationStatsSchema,
} from "../http/schemas.js";
import { noContent } from "./common.js";
import { attachEncoding, encodingOf, toCreateEvaluation } from "../http/evaluationWire.js";

const Params = IdParam("evaluation_id", "eval");

/**
 * A validated create request as the evaluation service receives it (bench:api measures this too).
 * A large body's request was encoded on the body worker already (http/bodies.ts): the request
 * then carries no contents here, only that encoding, which the client sends as it is.
 */
export function createEvaluationRequest(
  organizationId: string,
  body: z.infer<typeof CreateEvaluationSchema>,
): evaluationV1.CreateEvaluationRequest {
  const request = toCreateEvaluation(organizationId, body);
  const encoded = encodingOf(body);
  if (encoded) {
    // Made for the caller's organization on the worker; anything else is a defect, not a request.
    if (encoded.organizationId !== organizationId) throw new Error("a body encoded for another organization");
    const withoutContents = { ...request, files: [] };
    attachEncoding(withoutContents, encoded);
    return withoutContents;
  }
  return {
    ...request,
    files: request.files.map((f) => ({
      ...f,
      content: typeof f.content === "string" ? Buffer.from(f.content, "utf8") : (f.content as Buffer),
    })),
  };
}

export const evaluationRoutes = [
  route({
    method: "post",
    path: "/v1/evaluations",
    operationId: "createEvaluation",
    errors: [422],
    errorNotes: {
      422: "Or EVALUATION_TIMEOUT (details.timeout_ms): the scan ran on the scan threads past the synchronous deadline (VERDICT_SCAN_TIMEOUT_MS; time waiting for a thread does not count); retrying the same change does not help. A scan still unfinished VERDICT_SCAN_MAX_WAIT_MS after the request, waiting included, answers 503",
      429: "Also when the organization already has VERDICT_ORG_MAX_EVALUATIONS_IN_FLIGHT evaluations running or waiting (details.window = concurrent), or VERDICT_ORG_MAX_QUEUED_EVALUATIONS queued evaluations or VERDICT_ORG_MAX_QUEUED_BYTES bytes of queued content (details.window = queued)",
    },
    summary: "Evaluate the files of a change against the organization's policies",
    tag: "Evaluations",
    access: { kind: "scope", scope: "write:evaluations" },
    rateClass: "evaluations_create",
    body: CreateEvaluationSchema,
    responses: {
      201: { description: "Checked within the request: status completed", schema: EvaluationSchema },
      202: {
        description: "A large change, queued: status pending until a worker finishes it (poll GET, or use webhooks)",
        schema: EvaluationSchema,
      },
    },
    handler: async ({ body, principal, clients, signal }) => {
      const request = createEvaluationRequest(principal!.organizationId, body);
      // A large body is first checked against the organization's queue room, so one that would be
      // refused (429) does not cross to the evaluation service and is not decoded there.
      const encoded = encodingOf(request);
      if (encoded) {
        await clients.evaluation.checkEvaluationRoom(
          { organization_id: request.organization_id, files: encoded.files, bytes: encoded.contentBytes },
          { signal },
        );
      }
      const res = await clients.evaluation.createEvaluation(request, { signal });
      const evaluation = evaluationJson(res.evaluation!);
      return evaluation.status === "pending"
        ? { status: 202, body: evaluation, headers: { Location: `/v1/evaluations/${evaluation.id}` } }
        : { status: 201, body: evaluation };
    },
  }),
  route({
    method: "get",
    path: "/v1/evaluations",
    operationId: "listEvaluations",
    summary: "List evaluations, newest first",
    tag: "Evaluations",
    access: { kind: "scope", scope: "read:evaluations" },
    rateClass: "evaluations_list",
    query: ListEvaluationsQuery,
    responses: { 200: { description: "A page of evaluations", schema: EvaluationListSchema } },
    handler: async ({ query, principal, clients }) => {
      refuseImpossibleDays(query);
      const res = await clients.evaluation.listEvaluations({
        organization_id: principal!.organizationId,
        repository: query.repository,
        status: query.status,
        passed: query.passed,
        since: query.since ? new Date(query.since).toISOString() : undefined,
        until: query.until ? new Date(query.until).toISOString() : undefined,
        limit: query.limit,
        cursor: query.cursor,
      });
      return {
        status: 200,
        body: {
          evaluations: res.evaluations.map(evaluationJson),
          pagination: { next_cursor: res.next_cursor ?? null, has_more: res.has_more },
        },
      };
    },
  }),
  // Before /v1/evaluations/:evaluation_id, which would take "stats" for an id.
  route({
    method: "get",
    path: "/v1/evaluations/stats",
    operationId: "getEvaluationStats",
    summary:
      "The overview's figures over a range: pass/fail and violations per day or week, top policies and top repositories (finished evaluations)",
    tag: "Evaluations",
    access: { kind: "scope", scope: "read:evaluations" },
    rateClass: "reads",
    query: EvaluationStatsQuery,
    errors: [422],
    errorNotes: {
      422: "since not before until, a range of more than 366 days, or a date that does not exist (field since or until)",
    },
    responses: { 200: { description: "Figures of the caller's organization", schema: EvaluationStatsSchema } },
    handler: async ({ query, principal, clients }) => {
      refuseImpossibleDays(query);
      const res = await clients.evaluation.getEvaluationStats({
        organization_id: principal!.organizationId,
        // As the list does: a date-time without a zone is read as the server's (the schema allows it).
        since: query.since ? new Date(query.since).toISOString() : undefined,
        until: query.until ? new Date(query.until).toISOString() : undefined,
        bucket: query.bucket,
      });
      const figures = ({ start: _start, ...f }: evaluationV1.StatsFigures) => f;
      return {
        status: 200,
        body: {
          since: res.since,
          until: res.until,
          bucket: res.bucket as "day" | "week",
          totals: figures(res.totals!),
          buckets: res.buckets.map((b) => ({ start: b.start, ...figures(b) })),
          top_policies: res.top_policies,
          top_repositories: res.top_repositories,
        },
      };
    },
  }),
  route({
    method: "get",
    path: "/v1/evaluations/:evaluation_id",
    operationId: "getEvaluation",
    errors: [410],
    summary: "Get an evaluation",
    tag: "Evaluations",
    access: { kind: "scope", scope: "read:evaluations" },
    rateClass: "reads",
    params: Params,
    responses: { 200: { description: "The evaluation", schema: EvaluationSchema } },
    handler: async ({ params, principal, clients }) => {
      const res = await clients.evaluation.getEvaluation({
        organization_id: principal!.organizationId,
        evaluation_id: params.evaluation_id,
      });
      return { status: 200, body: evaluationJson(res.evaluation!) };
    },
  }),
  route({
    method: "delete",
    path: "/v1/evaluations/:evaluation_id",
    operationId: "deleteEvaluation",
    errors: [410],
    summary: "Delete an evaluation",
    tag: "Evaluations",
    access: { kind: "scope", scope: "write:evaluations" },
    rateClass: "writes",
    params: Params,
    responses: noContent,
    handler: async ({ params, principal, clients }) => {
      await clients.evaluation.deleteEvaluation({
        organization_id: principal!.organizationId,
        evaluation_id: params.evaluation_id,
      });
      return { status: 204 };
    },
  }),
];
