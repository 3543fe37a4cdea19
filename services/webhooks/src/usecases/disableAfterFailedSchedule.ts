import { formatDuration } from "../domain/schedule.js";
import type { WebhookDeps } from "../deps.js";
import type { DeliveryRecord, EndpointRecord } from "../repo.js";
import { disableEndpoint } from "./disableEndpoint.js";

export interface DisableAfterFailedScheduleCommand {
  endpoint: EndpointRecord;
  /** The message that failed every attempt of its schedule. */
  delivery: DeliveryRecord;
  /** When its run of attempts started, and how many it made. */
  runStartedAt: string;
  runAttempts: number;
  /** When its last attempt ended. */
  at: Date;
}

/**
 * Failing for a whole schedule (about three days by default) with no success in between: the
 * endpoint is gone in all but name. Stop sending to it and tell the organization.
 */
export async function disableAfterFailedSchedule(
  deps: WebhookDeps,
  cmd: DisableAfterFailedScheduleCommand,
): Promise<void> {
  const { endpoint, runStartedAt } = cmd;
  const fresh = await deps.repo.findEndpoint(endpoint.organization_id, endpoint.id);
  if (fresh && (!fresh.last_success_at || fresh.last_success_at < runStartedAt)) {
    const span = formatDuration(cmd.at.getTime() - Date.parse(runStartedAt));
    await disableEndpoint(deps, {
      endpoint: fresh,
      reason: `No delivery succeeded for ${span}: message ${cmd.delivery.id} failed all ${cmd.runAttempts} attempts`,
    });
  }
}
