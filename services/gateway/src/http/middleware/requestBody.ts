// A route's body, read only after its caller is authenticated and within its limits: JSON with
// its body class's size limit (bodyLimits.ts), validated against the route's schema. A body of a
// WORKER_BODIES route in UTF-8 is read as bytes here (the I/O) and, when large, decoded, parsed
// and validated on a body worker thread (one organization's turn at a time).
import express, { type Request, type RequestHandler, type Response } from "express";
import { errors } from "@verdict/kit";
import { PoolJobError, type FairPool } from "@verdict/runtime";
import type { Principal } from "../auth.js";
import { parseBody, withEncoding, WORKER_BODIES, type BodyJob, type BodyOutcome } from "../bodies.js";
import { bodyClassOf, bodyLimit, type BodyClass } from "../bodyLimits.js";
import type { Route } from "../route.js";
import { parseOr400 } from "../validation.js";
import { toAppError } from "./errors.js";

export interface BodyWorkers {
  pool: Pick<FairPool<BodyJob, BodyOutcome>, "run">;
  minBytes: number;
  timeoutMs: number;
}

export type ReadBody = (r: Route, principal: Principal | undefined, req: Request, res: Response) => Promise<unknown>;

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
  ): Promise<unknown> => {
    await run(rawParser, req, res);
    const bytes: unknown = req.body;
    if (!Buffer.isBuffer(bytes)) return parseOr400(WORKER_BODIES[operationId]!, undefined);
    const outcome =
      bodyWorkers && bytes.length >= bodyWorkers.minBytes
        ? await bodyWorkers.pool
            .run(
              principal?.organizationId ?? `ip:${req.ip}`,
              { operationId, bytes, ...(principal ? { organizationId: principal.organizationId } : {}) },
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
        : parseBody(operationId, bytes);
    req.body = undefined;
    if (outcome.kind === "malformed") throw toAppError({ type: "entity.parse.failed" });
    if (outcome.kind === "invalid") throw errors.validation(outcome.errors);
    return withEncoding(outcome);
  };

  return async (r, principal, req, res) => {
    if (!r.body) return undefined;
    if (!req.is("application/json")) {
      throw errors.validation([
        { field: "body", code: "INVALID_FORMAT", message: "Send a JSON body with Content-Type: application/json" },
      ]);
    }
    if (WORKER_BODIES[r.operationId] && utf8(req)) return workerBody(r.operationId, principal, req, res);
    await run(jsonParserFor(bodyClassOf(r)), req, res);
    return parseOr400(r.body, req.body);
  };
}

function utf8(req: Request): boolean {
  const charset = /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(req.get("content-type") ?? "")?.[1]?.toLowerCase();
  return charset === undefined || charset === "utf-8" || charset === "utf8";
}
