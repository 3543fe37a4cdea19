import { route } from "../http/route.js";
import { CreateEvaluationSchema } from "../http/schemas.js";
import { EvaluationSchema, evaluationGeneratedRoutes, evaluationJson } from "../gen/evaluation.rest.js";

/**
 * A create request of this size and more is first checked against the organization's queue room
 * (it may be queued), so that one the queue cap would refuse (429) is not sent to the evaluation
 * service and decoded there; a smaller one goes straight to it (checked within the request when
 * it is not queued). The body limit is 31 MiB: a round trip is cheap beside sending that.
 */
const ROOM_CHECK_MIN_BYTES = 1024 * 1024;

/**
 * The evaluation routes: generated from proto/verdict/evaluation (its google.api.http rules, see
 * docs/contracts.md), but for the create route. That one is written by hand because its REST
 * shape deliberately differs from the proto message: `content` is UTF-8 text in JSON and bytes on
 * the wire, the body arrives validated and encoded once as the create request (http/bodies.ts, on
 * a body worker when it is large), a large one is first checked against the organization's queue
 * room, and the status is 201 or 202 by the evaluation's state.
 */
export const evaluationRoutes = [
  route({
    method: "post",
    path: "/v1/evaluations",
    operationId: "createEvaluation",
    errors: [422],
    errorNotes: {
      422: "Or EVALUATION_TIMEOUT (details.timeout_ms): the scan ran on the scan threads past the synchronous deadline (VERDICT_SCAN_TIMEOUT_MS; time waiting for a thread does not count); retrying the same change does not help. A scan still unfinished VERDICT_SCAN_MAX_WAIT_MS after the request, waiting included, answers 503. Or REPOSITORY_NOT_CONNECTED (details.field repository): the organization requires connected repositories (settings.require_connected_repository) and this one was not connected through a provider connection",
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
    handler: async ({ encodedEvaluation, principal, clients, signal }) => {
      const request = encodedEvaluation!;
      // Encoded for the caller's organization when its body was read; anything else is a defect.
      if (request.organizationId !== principal!.organizationId)
        throw new Error("a body encoded for another organization");
      if (request.bytes.byteLength >= ROOM_CHECK_MIN_BYTES) {
        await clients.evaluation.checkEvaluationRoom(
          { organization_id: request.organizationId, files: request.files, bytes: request.contentBytes },
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
