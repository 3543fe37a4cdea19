// Entry point of a body worker thread (piscina calls the default export with each job): see
// bodies.ts. A parsed evaluation's create request moves back to the gateway's thread encoded, in
// one buffer.
import { withTransfer } from "@verdict/runtime";
import { encodeEvaluation, parseBody, type BodyJob, type BodyOutcome } from "./bodies.js";

export default function parse(job: BodyJob): BodyOutcome {
  const outcome = encodeEvaluation(job, parseBody(job.operationId, job.bytes));
  if (outcome.kind !== "ok" || !outcome.encoded) return outcome;
  return withTransfer(outcome, [outcome.encoded.bytes.buffer as ArrayBuffer]);
}
