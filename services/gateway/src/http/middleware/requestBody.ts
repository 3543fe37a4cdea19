// A route's body, read only after its caller is authenticated and within its limits: JSON with
// its body class's size limit (bodyLimits.ts), validated against the route's schema. A body of a
// WORKER_BODIES route in UTF-8 is read as bytes here (the I/O) and, when large, decoded, parsed
// and validated on a body worker thread (one organization's turn at a time); an evaluation's body
// is encoded there too, as its create request, and only there (bodies.ts, encodeEvaluation).
import express, { type Request, type RequestHandler, type Response } from "express";
import { errors } from "@verdict/kit";
import { PoolJobError, type FairPool } from "@verdict/runtime";
import type { Principal } from "../auth.js";
import { encodeEvaluation, parseBody, WORKER_BODIES, type BodyJob, type BodyOutcome } from "../bodies.js";
import type { EncodedCreateEvaluation } from "../evaluationWire.js";
import { bodyClassOf, bodyLimit, type BodyClass } from "../bodyLimits.js";
import type { Route } from "../route.js";
import { parseOr400 } from "../validation.js";
import { toAppError } from "./errors.js";

export interface BodyWorkers {
  pool: Pick<FairPool<BodyJob, BodyOutcome>, "run">;
  minBytes: number;
  timeoutMs: number;
}

/** A route's validated body, and for an evaluation its create request, encoded. */
export interface ReadResult {
  body: unknown;
  encoded?: EncodedCreateEvaluation | undefined;
}

export type ReadBody = (r: Route, principal: Principal | undefined, req: Request, res: Response) => Promise<ReadResult>;

export function bodyReader(bodyLimitBytes: number, bodyWorkers: BodyWorkers | undefined): ReadBody {
  // One JSON parser per body class, each with its class's limit.
  const jsonParsers = new Map<BodyClass, RequestHandler>();
  const jsonParserFor = (cls: BodyClass) => {
    let parser = jsonParsers.get(cls);
    if (!parser) {
      parser = express.json({ limit: bodyLimit(cls, bodyLimitBytes), strict: true, type: () => true });
      jsonParsers.set(cls, parser);
    }
    return parser;
  };
  const rawParser = express.raw({ limit: bodyLimit("evaluation", bodyLimitBytes), type: () => true });
  const run = (parser: RequestHandler, req: Request, res: Response) =>
    new Promise<void>((resolve, reject) => parser(req, res, (err?: unknown) => (err ? reject(err) : resolve())));

  /**
   * A body of a WORKER_BODIES route: its bytes read here, the rest on a body worker when it is
   * large. Another charset than UTF-8 goes the ordinary way (express.json decodes it).
   */
  const workerBody = async (
    operationId: string,
    principal: Principal | undefined,
    req: Request,
    res: Response,
  ): Promise<ReadResult> => {
    await run(rawParser, req, res);
    const bytes: unknown = req.body;
    const organization = principal ? { organizationId: principal.organizationId } : {};
    if (!Buffer.isBuffer(bytes)) return prepared(operationId, organization, undefined);
    const outcome =
      bodyWorkers && bytes.length >= bodyWorkers.minBytes
        ? await bodyWorkers.pool
            .run(
              principal?.organizationId ?? `ip:${req.ip}`,
              { operationId, bytes, ...organization },
              {
                timeoutMs: bodyWorkers.timeoutMs,
                // The body's own buffer moves to the worker rather than being copied.
                ...(bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength
                  ? { transferList: [bytes.buffer as ArrayBuffer] }
                  : {}),
              },
            )
            .catch((err: unknown) => {
              // Shutting down, or the threads too busy to parse it in time: retry later.
              if (err instanceof PoolJobError)
                throw errors.unavailable("The request body could not be read in time; retry");
              throw err;
            })
        : encodeEvaluation({ operationId, ...organization }, parseBody(operationId, bytes));
    req.body = undefined;
    if (outcome.kind === "malformed") throw toAppError({ type: "entity.parse.failed" });
    if (outcome.kind === "invalid") throw errors.validation(outcome.errors);
    return { body: outcome.data, encoded: outcome.encoded };
  };

  /** A WORKER_BODIES route's body parsed by express.json (another charset): validated, then encoded. */
  const prepared = (operationId: string, organization: { organizationId?: string }, json: unknown): ReadResult => {
    const data = parseOr400(WORKER_BODIES[operationId]!, json);
    const outcome = encodeEvaluation({ operationId, ...organization }, { kind: "ok", data, raw: undefined });
    return { body: data, encoded: outcome.kind === "ok" ? outcome.encoded : undefined };
  };

  return async (r, principal, req, res) => {
    if (!r.body) return { body: undefined };
    if (!req.is("application/json")) {
      throw errors.validation([
        { field: "body", code: "INVALID_FORMAT", message: "Send a JSON body with Content-Type: application/json" },
      ]);
    }
    if (WORKER_BODIES[r.operationId] && utf8(req)) return workerBody(r.operationId, principal, req, res);
    await run(jsonParserFor(bodyClassOf(r)), req, res);
    if (WORKER_BODIES[r.operationId])
      return prepared(r.operationId, principal ? { organizationId: principal.organizationId } : {}, req.body);
    return { body: parseOr400(r.body, req.body) };
  };
}

function utf8(req: Request): boolean {
  const charset = /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(req.get("content-type") ?? "")?.[1]?.toLowerCase();
  return charset === undefined || charset === "utf-8" || charset === "utf8";
}
