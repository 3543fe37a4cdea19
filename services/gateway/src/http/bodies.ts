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
  | {
      kind: "ok";
      data: unknown;
      raw: unknown;
      /**
       * An evaluation's file contents, UTF-8 encoded into one buffer (moved, not copied, from the
       * worker thread), `files[i].content` being bytes `spans[2i]` to `spans[2i] + spans[2i+1]`.
       */
      packed?: { bytes: Uint8Array; spans: number[] };
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

interface FilesBody {
  files: { content: string | Uint8Array }[];
}

const encoder = new TextEncoder();

/**
 * On the worker: an evaluation's contents encoded once, into one buffer that moves to the
 * gateway's thread without a copy (structured cloning would copy every string, and the thread
 * would then encode each to bytes for gRPC). `capacity` is the body's size: the contents' UTF-8
 * fits in it (a JSON string's bytes encode at most as many; only invalid UTF-8 in the body,
 * decoded as U+FFFD, takes more, and then the buffer grows), so each content is encoded once,
 * without first measuring its UTF-8 length (the schema has measured it already).
 */
export function pack(outcome: BodyOutcome, capacity = 0): BodyOutcome {
  const body = outcome.kind === "ok" ? (outcome.data as Partial<FilesBody>) : undefined;
  if (outcome.kind !== "ok" || !Array.isArray(body?.files)) return outcome;
  let bytes = new Uint8Array(new ArrayBuffer(Math.max(capacity, 1024)));
  const spans: number[] = [];
  let at = 0;
  for (const f of body.files) {
    const text = f.content as string;
    const start = at;
    for (let read = 0; ;) {
      const done = encoder.encodeInto(read ? text.slice(read) : text, bytes.subarray(at));
      read += done.read;
      at += done.written;
      if (read >= text.length) break;
      const grown = new Uint8Array(new ArrayBuffer(Math.max(bytes.length * 2, at + (text.length - read) * 3)));
      grown.set(bytes.subarray(0, at));
      bytes = grown;
    }
    spans.push(start, at - start);
    f.content = "";
  }
  return { ...outcome, packed: { bytes, spans } };
}

/** On the gateway's thread: the contents back in place, as views of the one buffer. */
export function unpack(outcome: BodyOutcome & { kind: "ok" }): unknown {
  if (!outcome.packed) return outcome.data;
  const { bytes, spans } = outcome.packed;
  const body = outcome.data as FilesBody;
  for (const [i, f] of body.files.entries())
    f.content = Buffer.from(bytes.buffer, bytes.byteOffset + spans[2 * i]!, spans[2 * i + 1]!);
  return body;
}
