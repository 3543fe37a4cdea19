import type { z } from "zod";
import type { evaluationV1 } from "@verdict/proto";
import { route } from "../http/route.js";
import { CreateEvaluationSchema } from "../http/schemas.js";
import { attachEncoding, encodingOf, toCreateEvaluation } from "../http/evaluationWire.js";
import { EvaluationSchema, evaluationGeneratedRoutes, evaluationJson } from "../gen/evaluation.rest.js";

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

/**
 * The evaluation routes: generated from proto/verdict/evaluation (its google.api.http rules, see
 * docs/contracts.md), but for the create route. That one is written by hand because its REST
 * shape deliberately differs from the proto message: `content` is UTF-8 text in JSON and bytes on
 * the wire, a large body arrives already encoded from the body worker (http/bodies.ts) and is
 * first checked against the organization's queue room, and the status is 201 or 202 by the
 * evaluation's state.
 */
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
  ...evaluationGeneratedRoutes,
];
