// Entry point of a body worker thread (piscina calls the default export with each job): see
// bodies.ts. A parsed evaluation's contents move back to the gateway's thread in one buffer.
import { withTransfer } from "@verdict/runtime";
import { pack, parseBody, type BodyJob, type BodyOutcome } from "./bodies.js";

export default function parse(job: BodyJob): BodyOutcome {
  const outcome = pack(parseBody(job.operationId, job.bytes), job.bytes.byteLength);
  if (outcome.kind !== "ok" || !outcome.packed) return outcome;
  return withTransfer(outcome, [outcome.packed.bytes.buffer as ArrayBuffer]);
}
