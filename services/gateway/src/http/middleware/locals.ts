// What the middleware of one request share: its id, the route it matched (for metrics and logs)
// and, once authenticated, its principal.
import type { Response } from "express";
import type { Principal } from "../auth.js";

export interface Locals {
  requestId: string;
  routePath: string;
  principal?: Principal;
}

export const locals = (res: Response) => res.locals as Locals;
