// A call nobody is authenticated for counts against its address (the anonymous buckets):
// public routes, failed sign-ins, 404s, 405s, the OAuth server's endpoints.
import type { Request, RequestHandler, Response } from "express";
import { rateHeaders, type RateLimiter } from "../rateLimit.js";

export type Throttle = (req: Request, res: Response) => Promise<void>;

export function addressThrottle(limiter: RateLimiter): Throttle {
  return async (req, res) => {
    res.set(rateHeaders(await limiter.consume(`ip:${req.ip}`, limiter.bucketsForAnonymous())));
  };
}

/** The throttle as express middleware (429 past it). */
export function throttleMiddleware(throttle: Throttle): RequestHandler {
  return (req, res, next) => {
    throttle(req, res).then(() => next(), next);
  };
}
