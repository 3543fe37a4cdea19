// Request bodies that may be large (an evaluation's files: up to the body limit), decoded,
// parsed and validated from their bytes by one pure function, run on the gateway's thread for
// small bodies and on a body worker thread (bodyWorker.ts) for large ones, so a 31 MiB body
// never stops the thread that answers every organization. Same answers as express.json and
// parseOr400 on that thread: UTF-8 with a BOM stripped, an empty body read as {}, a top-level
// value other than an object or an array malformed (strict), the same field errors.
import type { z } from "zod";
import { CreateEvaluationSchema } from "./schemas.js";
import { toFieldErrors } from "./validation.js";
import type { FieldError } from "@verdict/kit";

/** The routes (by operationId) whose body is parsed this way, and their schemas. */
export const WORKER_BODIES: Readonly<Record<string, z.ZodType>> = {
  createEvaluation: CreateEvaluationSchema,
};

export interface BodyJob {
  operationId: string;
  bytes: Uint8Array;
}

export type BodyOutcome =
  | { kind: "ok"; data: unknown; raw: unknown }
  | { kind: "invalid"; errors: FieldError[] }
  | { kind: "malformed" };

/** body-parser's strict check: the first character that is not JSON whitespace. */
const FIRST_CHAR = /^[\x20\x09\x0a\x0d]*([^\x20\x09\x0a\x0d])/;

export function parseBody(operationId: string, bytes: Uint8Array): BodyOutcome {
  const schema = WORKER_BODIES[operationId];
  if (!schema) throw new Error(`no body schema for ${operationId}`);
  let text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("utf8");
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  let raw: unknown = {};
  if (text.length) {
    const first = FIRST_CHAR.exec(text)?.[1];
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
