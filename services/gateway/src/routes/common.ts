import { readFileSync } from "node:fs";
import type { RouteResponse } from "../http/route.js";

/** The running service's version, from the gateway's package.json. */
export const VERSION: string = (
  JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { version: string }
).version;

export const noContent: Record<number, RouteResponse> = { 204: { description: "Deleted" } };
