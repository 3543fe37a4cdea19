// The delivery worker's share of the due messages.
import type { WebhookDeps } from "../deps.js";
import type { DeliveryRecord } from "../repo.js";

/** Messages each organization has under way, for the per-organization cap. */
export type InFlightByOrg = ReadonlyMap<string, number>;

/**
 * Takes up to `limit` due messages for this worker, oldest first, but at most `perOrg` at once
 * per organization (counting `inFlight`): one organization's endpoint that never answers holds
 * at most `perOrg` of the worker's slots, and the others' messages go out meanwhile. Each claim
 * is a compare-and-set on the message's version that moves it past "due" for the lease: two
 * workers (or two processes on one database) never attempt the same message at once, and a
 * worker that dies mid-attempt only delays the message until its lease runs out.
 */
export interface ClaimDueCommand {
  /** Messages to take at the most. */
  limit: number;
  /** Messages of one organization under way at once (default: no cap). */
  perOrg?: number;
  /** What each organization has under way already. */
  inFlight?: InFlightByOrg;
}

export async function claimDue(deps: WebhookDeps, cmd: ClaimDueCommand): Promise<DeliveryRecord[]> {
  const { limit, perOrg = Infinity, inFlight = new Map() } = cmd;
  const now = deps.clock.now();
  const leaseEnd = new Date(now.getTime() + deps.leaseMs).toISOString();
  const taken = new Map(inFlight);
  const claimed: DeliveryRecord[] = [];
  // Each round leaves out the organizations at their cap; a round that ends with a skipped
  // message has filled one more organization, so this ends within (organizations + 1) rounds.
  for (;;) {
    const full = [...taken].filter(([, n]) => n >= perOrg).map(([org]) => org);
    const want = limit - claimed.length;
    if (want <= 0) break;
    const due = await deps.repo.dueDeliveries(now.toISOString(), want, full);
    let skipped = false;
    for (const d of due) {
      if (claimed.length >= limit) break;
      if ((taken.get(d.organization_id) ?? 0) >= perOrg) {
        skipped = true;
        continue;
      }
      const won = await deps.repo.claimDelivery(d, leaseEnd);
      if (!won) continue;
      claimed.push(won);
      taken.set(d.organization_id, (taken.get(d.organization_id) ?? 0) + 1);
    }
    if (!skipped || due.length < want) break;
  }
  return claimed;
}
