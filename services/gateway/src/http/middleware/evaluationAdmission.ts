// Evaluation requests of one organization in flight at once (their bodies, up to the body limit
// each, are held in memory): one more answers 429 before its body is read.
import type { Response } from "express";
import { AppError } from "@verdict/kit";

export class EvaluationAdmission {
  private readonly inFlight = new Map<string, number>();

  /** `max` unset: no cap. */
  constructor(private readonly max: number | undefined) {}

  /** Counts the request against its organization's evaluations in flight until it is answered. */
  admit(organizationId: string, res: Response): void {
    const max = this.max;
    if (!max) return;
    const n = this.inFlight.get(organizationId) ?? 0;
    if (n >= max) {
      throw new AppError(
        "rate_limited",
        "RATE_LIMIT_EXCEEDED",
        `At most ${max} evaluations of an organization are in flight at once; retry when one has finished`,
        { limit: max, window: "concurrent", retry_after: 1 },
      );
    }
    this.inFlight.set(organizationId, n + 1);
    res.once("close", () => {
      const left = (this.inFlight.get(organizationId) ?? 1) - 1;
      if (left > 0) this.inFlight.set(organizationId, left);
      else this.inFlight.delete(organizationId);
    });
  }
}
