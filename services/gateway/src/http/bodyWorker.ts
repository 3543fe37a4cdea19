// Entry point of a body worker thread (piscina calls the default export with each job): see
// bodies.ts.
import { parseBody, type BodyJob, type BodyOutcome } from "./bodies.js";

export default function parse(job: BodyJob): BodyOutcome {
  return parseBody(job.operationId, job.bytes);
}
