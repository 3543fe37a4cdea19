// Request bodies that may be large (an evaluation's files: up to the body limit), decoded,
// parsed and validated from their bytes by one pure function, run on the gateway's thread for
// small bodies and on a body worker thread (bodyWorker.ts) for large ones, so a 31 MiB body
// never stops the thread that answers every organization. Same answers as express.json and
// parseOr400 on that thread: UTF-8 with a BOM stripped, an empty body read as {}, a top-level
// value other than an object or an array malformed (strict), the same field errors. An
// evaluation's body leaves this step as its create request, encoded once (encodeEvaluation).
import type { z } from "zod";
import { CreateEvaluationSchema } from "./schemas.js";
import { toFieldErrors } from "./validation.js";
import type { FieldError } from "@verdict/kit";
import { encodeEvaluationBody, type EncodedCreateEvaluation } from "./evaluationWire.js";

/** The routes (by operationId) whose body is parsed this way, and their schemas. */
export const WORKER_BODIES: Readonly<Record<string, z.ZodType>> = {
  createEvaluation: CreateEvaluationSchema,
};

export interface BodyJob {
  operationId: string;
  bytes: Uint8Array;
  /** The caller's organization: an evaluation's create request is encoded for it on the worker. */
  organizationId?: string;
}

export type BodyOutcome =
  | {
      kind: "ok";
      data: unknown;
      raw: unknown;
      /** An evaluation's create request, encoded (its contents then left out of `data`). */
      encoded?: EncodedCreateEvaluation;
    }
  | { kind: "invalid"; errors: FieldError[] }
  | { kind: "malformed" };

/** body-parser's strict check: the first character that is not JSON whitespace (space, tab, LF, CR). */
function firstChar(text: string): string | undefined {
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c !== " " && c !== "\t" && c !== "\n" && c !== "\r") return c;
  }
  return undefined;
}

export function parseBody(operationId: string, bytes: Uint8Array): BodyOutcome {
  const schema = WORKER_BODIES[operationId];
  if (!schema) throw new Error(`no body schema for ${operationId}`);
  let text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("utf8");
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  let raw: unknown = {};
  if (text.length) {
    const first = firstChar(text);
    if (first !== "{" && first !== "[") return { kind: "malformed" };
    try {
      raw = JSON.parse(text);
    } catch {
      return { kind: "malformed" };
    }
  }
  const result = schema.safeParse(raw);
  if (!result.success) return { kind: "invalid", errors: toFieldErrors(result.error.issues, raw) };
  // The raw value goes back only where a handler reads it (none of these routes does).
  return { kind: "ok", data: result.data, raw: undefined };
}

/**
 * A valid evaluation's body as its create request for `organizationId`, protobuf-encoded into one
 * buffer, on whichever thread parsed it: on a body worker, the buffer moves to the gateway's
 * thread without a copy (structured cloning would copy every content, and the thread would then
 * encode each to bytes for gRPC: tens of milliseconds of a 31 MiB body on the thread that answers
 * every organization). The parsed body keeps everything but its contents; the route sends the
 * encoding (routes/evaluations.ts).
 */
export function encodeEvaluation(
  job: Pick<BodyJob, "operationId" | "organizationId">,
  outcome: BodyOutcome,
): BodyOutcome {
  const { organizationId } = job;
  if (outcome.kind !== "ok" || job.operationId !== "createEvaluation" || organizationId === undefined) return outcome;
  const body = outcome.data as z.infer<typeof CreateEvaluationSchema>;
  const encoded = encodeEvaluationBody(organizationId, body);
  for (const f of body.files) f.content = "";
  return { ...outcome, encoded };
}
