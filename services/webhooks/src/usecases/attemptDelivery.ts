// Attempts a claimed message: send it signed, log the attempt, and decide what comes next
// (done, retry later, or give up and disable the endpoint).
import { judge, nextAttemptAt, parseRetryAfter, retryDelayMs } from "../domain/schedule.js";
import { signatureHeaders } from "../domain/signing.js";
import type { WebhookDeps } from "../deps.js";
import { MAX_LOGGED_ATTEMPTS, type AttemptRecord, type DeliveryRecord } from "../repo.js";
import { disableAfterFailedSchedule } from "./disableAfterFailedSchedule.js";
import { disableEndpoint } from "./disableEndpoint.js";

function withAttempt(delivery: DeliveryRecord, attempt: AttemptRecord): AttemptRecord[] {
  return [...delivery.attempts, attempt].slice(-MAX_LOGGED_ATTEMPTS);
}

/** Makes one attempt of a claimed message and records its outcome. */
export interface AttemptDeliveryCommand {
  /** A message this worker claimed (see claimDue). */
  delivery: DeliveryRecord;
}

export async function attemptDelivery(deps: WebhookDeps, cmd: AttemptDeliveryCommand): Promise<void> {
  const claimed = cmd.delivery;
  const endpoint = await deps.repo.findEndpoint(claimed.organization_id, claimed.webhook_id);
  const now = deps.clock.now();
  const number = (claimed.attempts.at(-1)?.attempt ?? 0) + 1;
  if (!endpoint || endpoint.status !== "active") {
    const reason = endpoint ? "not sent: the webhook is disabled" : "not sent: the webhook was deleted";
    const attempt: AttemptRecord = {
      attempt: number,
      attempted_at: now.toISOString(),
      status_code: null,
      latency_ms: 0,
      error: reason,
      response_excerpt: null,
    };
    await finish(deps, claimed, {
      status: "failed",
      attempts: withAttempt(claimed, attempt),
      completed_at: now.toISOString(),
    });
    return;
  }

  let secret: string;
  try {
    secret = deps.secrets.open(endpoint.secret_sealed, endpoint.id);
  } catch (err) {
    // The master key changed: nothing can be signed for this endpoint until it is restored.
    deps.logger.error(
      { err, webhook_id: endpoint.id },
      "cannot open the webhook secret: was VERDICT_WEBHOOK_MASTER_KEY changed?",
    );
    await finish(deps, claimed, { next_attempt_at: new Date(now.getTime() + 60_000).toISOString(), lease_until: null });
    return;
  }
  const result = await deps.sender.send({
    url: endpoint.url,
    headers: signatureHeaders(secret, claimed.id, now, claimed.body),
    body: claimed.body,
  });
  const done = deps.clock.now();
  const attempt: AttemptRecord = {
    attempt: number,
    attempted_at: now.toISOString(),
    status_code: result.statusCode ?? null,
    latency_ms: result.latencyMs,
    error: result.error ?? null,
    response_excerpt: result.excerpt ?? null,
  };
  const attempts = withAttempt(claimed, attempt);
  const runStartedAt = claimed.run_started_at ?? now.toISOString();
  const runAttempts = claimed.run_attempts + 1;
  const verdict = judge(result.statusCode);
  // The message's last attempt: it is done with, either way.
  const ended = (status: "succeeded" | "failed"): Partial<DeliveryRecord> => ({
    status,
    attempts,
    run_attempts: runAttempts,
    run_started_at: runStartedAt,
    next_attempt_at: null,
    lease_until: null,
    completed_at: done.toISOString(),
  });
  const log = {
    organization_id: claimed.organization_id,
    webhook_id: endpoint.id,
    delivery_id: claimed.id,
    event: claimed.event,
    attempt: number,
    status_code: result.statusCode,
    error: result.error,
    latency_ms: result.latencyMs,
  };

  if (verdict.kind === "succeeded") {
    deps.logger.info(log, "webhook delivered");
    await finish(deps, claimed, ended("succeeded"));
    await deps.repo.updateEndpoint(endpoint.organization_id, endpoint.id, { last_success_at: done.toISOString() });
    return;
  }
  if (verdict.kind === "gone") {
    deps.logger.warn(log, "webhook endpoint answered 410 Gone: disabling it");
    await finish(deps, claimed, ended("failed"));
    await disableEndpoint(deps, { endpoint, reason: "The endpoint answered 410 Gone" });
    return;
  }
  const delay = retryDelayMs(deps.retrySchedule, runAttempts, deps.random());
  if (delay !== undefined) {
    const next = nextAttemptAt(done, delay, parseRetryAfter(result.retryAfter, done));
    deps.logger.warn({ ...log, next_attempt_at: next.toISOString() }, "webhook attempt failed; will retry");
    await finish(deps, claimed, {
      attempts,
      run_attempts: runAttempts,
      run_started_at: runStartedAt,
      next_attempt_at: next.toISOString(),
      lease_until: null,
    });
    return;
  }
  deps.logger.warn(log, "webhook message failed on every attempt of its schedule");
  await finish(deps, claimed, ended("failed"));
  await disableAfterFailedSchedule(deps, { endpoint, delivery: claimed, runStartedAt, runAttempts, at: done });
}

async function finish(deps: WebhookDeps, claimed: DeliveryRecord, set: Partial<DeliveryRecord>): Promise<void> {
  const updated = await deps.repo.updateDelivery(claimed, set);
  // Deleted with its endpoint meanwhile, or taken over after an expired lease: nothing to record.
  if (!updated)
    deps.logger.warn({ delivery_id: claimed.id }, "webhook message changed during its attempt; outcome not recorded");
}
