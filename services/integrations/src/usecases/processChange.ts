// Checks one change a provider told us about: the organization's repository connected through
// this connection, the changed files at the head commit (added and modified text, within the
// evaluation's limits, read a few at a time), one evaluation with the organization's policies
// linked to the repository and the commit, and the result posted back (a status, line comments).
// Once per (repository, head commit, policy version): a redelivered event finds its check done.
// A later head of the same pull request supersedes a check still running (a force-push).
// A provider failure that retrying can mend (a rate limit, an outage) reschedules the check
// through the bus (the delivery's next attempt, written with it: nothing is lost) and shows the
// change as "pending, retrying"; a refused token marks the connection broken (connectionHealth.ts).
import { newId } from "@verdict/kit";
import { DuplicateKeyError } from "@verdict/store";
import { evaluationV1 } from "@verdict/proto";
import { filesToRead, isText } from "../domain/change.js";
import { CHANGE_RETRY_TOPIC, type ChangeRetryData } from "../domain/events.js";
import { buildReport, CHECK_NAME, type EvaluationOutcome } from "../domain/report.js";
import { rescheduleDelayMs } from "../domain/retry.js";
import {
  ProviderError,
  type ChangeRef,
  type ChangedFile,
  type InboundEvent,
  type ProviderClient,
} from "../domain/provider.js";
import type { IntegrationsDeps } from "../deps.js";
import type { CheckRecord, ConnectionRecord, InboundDeliveryRecord } from "../repo.js";
import { recordProviderError, recordProviderWorks, refreshTokenExpiry } from "./connectionHealth.js";
import { connectedRepository, followRename, followRepository } from "./followRepository.js";

/**
 * The events that ask for a check: a pull request opened or pushed to, GitHub's "Re-run", and a
 * push (checked when it is to the repository's default branch).
 */
type CheckedEvent = Extract<InboundEvent, { kind: "pull_request" | "rerun" | "push" }>;
const CHECKED_ACTIONS = new Set(["opened", "synchronize", "reopened"]);

function isChecked(event: InboundEvent): event is CheckedEvent {
  return (
    event.kind === "rerun" ||
    event.kind === "push" ||
    (event.kind === "pull_request" && CHECKED_ACTIONS.has(event.action))
  );
}

/** The commit a check reports on: a push's after, else the head. */
function headOf(event: CheckedEvent): string {
  return event.kind === "push" ? event.after : event.headSha;
}

/** The deliveries each service instance is processing now: a second call for one returns at once. */
const processing = new WeakMap<IntegrationsDeps, Set<string>>();

/**
 * Processes a delivery once it is due, unless this instance is processing it already (the bus's
 * redelivery and the re-drive can meet). Its end is recorded (processed_at); a delivery whose
 * processing never ended (the process died, a service it calls was down past the bus's retries) is
 * taken up again by redriveDeliveries.
 */
export async function processDelivery(
  deps: IntegrationsDeps,
  cmd: { deliveryId: string; attempt?: number },
): Promise<void> {
  let mine = processing.get(deps);
  if (!mine) processing.set(deps, (mine = new Set()));
  if (mine.has(cmd.deliveryId)) return;
  mine.add(cmd.deliveryId);
  try {
    if (await processOnce(deps, cmd))
      await deps.repo.c.deliveries.updateOne({ id: cmd.deliveryId }, { processed_at: deps.clock.now().toISOString() });
  } finally {
    mine.delete(cmd.deliveryId);
  }
}

/** How long a delivery is left to the bus before the re-drive takes it up. */
export const REDRIVE_AFTER_MS = 30_000;
/** Deliveries older than this are not taken up again (a provider redelivers what it still wants). */
const REDRIVE_WITHIN_MS = 24 * 60 * 60_000;

/**
 * Takes up the deliveries whose processing never ended and is not running here: received more
 * than REDRIVE_AFTER_MS ago (and within a day), due (not rescheduled to later). A check is made once
 * per head and policy version whatever the attempts (checkPullRequest), so a delivery the bus also
 * redelivers changes nothing twice. Answers how many it took up.
 */
export async function redriveDeliveries(deps: IntegrationsDeps): Promise<number> {
  const now = deps.clock.now().getTime();
  const stale = await deps.repo.c.deliveries.find(
    {
      processed_at: { $exists: false },
      received_at: {
        $lt: new Date(now - REDRIVE_AFTER_MS).toISOString(),
        $gte: new Date(now - REDRIVE_WITHIN_MS).toISOString(),
      },
    },
    { limit: 100 },
  );
  let taken = 0;
  for (const d of stale) {
    if (processing.get(deps)?.has(d.id) || (d.not_before && Date.parse(d.not_before) > now)) continue;
    taken++;
    deps.logger.info(
      { delivery_id: d.id, organization_id: d.organization_id },
      "delivery not processed: taken up again",
    );
    await processDelivery(deps, { deliveryId: d.id, ...(d.attempts ? { attempt: d.attempts } : {}) }).catch(
      (err: unknown) => deps.logger.warn({ err, delivery_id: d.id }, "delivery taken up again failed: next sweep"),
    );
  }
  return taken;
}

/** One attempt; true when the delivery's processing ended (false: rescheduled, or nothing to read). */
async function processOnce(deps: IntegrationsDeps, cmd: { deliveryId: string; attempt?: number }): Promise<boolean> {
  const delivery = await deps.repo.c.deliveries.findOne({ id: cmd.deliveryId });
  if (!delivery) return false;
  const event = delivery.event;
  if (!isChecked(event) && event.kind !== "repository") return true;
  const connection = await deps.repo.findConnection(delivery.connection_id);
  if (!connection) return true;
  const attempt = cmd.attempt ?? 1;
  try {
    if (event.kind === "repository") await followRepository(deps, connection, event);
    else if (await checkPullRequest(deps, connection, event)) {
      await recordProviderWorks(deps, connection);
      await refreshTokenExpiry(deps, connection, event);
    }
    return true;
  } catch (err) {
    await recordProviderError(deps, connection, err);
    const log = deps.logger.child({ organization_id: connection.organization_id, connection_id: connection.id });
    if (err instanceof ProviderError && err.code === "unauthorized") {
      // Retrying cannot mend a revoked token: the connection shows broken until it is replaced.
      log.warn({ err, delivery_id: delivery.id }, "the provider refused the connection's token: connection broken");
      return true;
    }
    const delay = rescheduleDelayMs(err, attempt);
    if (delay === null) throw err;
    await reschedule(deps, delivery, attempt + 1, delay);
    log.warn({ err, delivery_id: delivery.id, attempt, retry_in_ms: delay }, "provider failed: check rescheduled");
    if (isChecked(event))
      await deps
        .clientFor(connection, event)
        .reportRetrying?.(changeOf(event), CHECK_NAME, retryReason(err as ProviderError))
        .catch((e: unknown) => log.info({ err: e }, "could not show the check as retrying"));
    return false;
  }
}

/** A consumer waits at most this long in one go (a longer wait would cost it its place in the group). */
const RETRY_WAIT_STEP_MS = 10_000;

/**
 * A rescheduled check: run at its time. A wait longer than one step is made in steps, the event
 * published again after each (should that fail, the bus redelivers this one: nothing is lost).
 */
export async function retryDelivery(
  deps: IntegrationsDeps,
  data: ChangeRetryData,
  stepMs = RETRY_WAIT_STEP_MS,
): Promise<void> {
  const wait = Date.parse(data.not_before) - deps.clock.now().getTime();
  if (wait > 0) await new Promise((r) => setTimeout(r, Math.min(wait, stepMs)));
  if (wait > stepMs) {
    await deps.bus.publish(CHANGE_RETRY_TOPIC, { source: "integrations", subject: data.delivery_id, data });
    return;
  }
  await processDelivery(deps, { deliveryId: data.delivery_id, attempt: data.attempt });
}

function changeOf(event: CheckedEvent): ChangeRef {
  if (event.kind === "push") return { repo: event.repo, headSha: event.after, baseSha: event.before };
  return {
    repo: event.repo,
    headSha: event.headSha,
    ...(event.kind === "pull_request" ? { baseSha: event.baseSha } : {}),
    ...(event.pullNumber === undefined ? {} : { pullNumber: event.pullNumber }),
  };
}

function retryReason(err: ProviderError): string {
  return err.code === "rate_limited" ? "the provider is rate-limiting" : "the provider is unavailable";
}

/** The delivery's next attempt, recorded with the event that asks for it (outbox). */
async function reschedule(deps: IntegrationsDeps, delivery: InboundDeliveryRecord, attempt: number, delayMs: number) {
  const data: ChangeRetryData = {
    organization_id: delivery.organization_id,
    connection_id: delivery.connection_id,
    delivery_id: delivery.id,
    attempt,
    not_before: new Date(deps.clock.now().getTime() + delayMs).toISOString(),
  };
  await deps.outbox.update(
    deps.repo.c.deliveries,
    { id: delivery.id },
    { attempts: attempt, not_before: data.not_before },
    [deps.outbox.event(CHANGE_RETRY_TOPIC, { source: "integrations", subject: delivery.id, data })],
  );
}

/**
 * A change's check; true when it reached the provider (a report posted or cancelled). A "Re-run" posts again what its head's check found (the same evaluation,
 * made once per head and policy version), or checks a head not checked yet; a re-run of a check
 * run GitHub lists for no pull request (a fork's) reads the head commit's own files.
 */
async function checkPullRequest(
  deps: IntegrationsDeps,
  connection: ConnectionRecord,
  event: CheckedEvent,
): Promise<boolean> {
  const rerun = event.kind === "rerun";
  const orgId = connection.organization_id;
  const log = deps.logger.child({ organization_id: orgId, connection_id: connection.id });
  // Only a repository this organization connected through this connection: an event naming
  // another organization's repository finds nothing here.
  let repository = await connectedRepository(deps, connection, event.providerRepoId);
  if (!repository) {
    log.info({ provider_repo_id: event.providerRepoId }, "event for a repository not connected: ignored");
    return false;
  }
  // Renamed or transferred in the provider: the event names it as it is now.
  repository = await followRename(deps, repository, orgId, `${event.repo.owner}/${event.repo.name}`);
  // A push is checked on the default branch; a branch with a pull request is checked through it.
  if (event.kind === "push" && event.ref !== `refs/heads/${repository.default_branch}`) {
    log.info({ repository_id: repository.id, ref: event.ref }, "push to a branch other than the default: ignored");
    return false;
  }
  const headSha = headOf(event);
  const pullNumber = event.kind === "push" ? undefined : event.pullNumber;
  const { version } = await deps.policy.resolvePolicies({ organization_id: orgId, policy_ids: [] });
  const now = deps.clock.now().toISOString();
  const check: CheckRecord = {
    id: newId("chk"),
    organization_id: orgId,
    connection_id: connection.id,
    dedupe_key: `${repository.id}:${headSha}:${version}`,
    repository_id: repository.id,
    repository: repository.name,
    pull_number: pullNumber ?? null,
    head_sha: headSha,
    status: "running",
    state: null,
    evaluation_id: null,
    created_at: now,
    updated_at: now,
  };
  let current = check;
  try {
    await deps.repo.c.checks.insertOne(check);
  } catch (err) {
    if (!(err instanceof DuplicateKeyError)) throw err;
    const existing = await deps.repo.c.checks.findOne({ dedupe_key: check.dedupe_key });
    // Done (or overtaken) before: a redelivery changes nothing, a "Re-run" posts it again. A check
    // that failed midway runs again.
    if (!existing || (existing.status !== "running" && !rerun)) {
      log.info(
        { check_id: existing?.id, head_sha: headSha, pull_number: pullNumber },
        "head already checked for this policy version: nothing to do",
      );
      return false;
    }
    current = existing;
  }
  await supersedeOlder(deps, current);
  const change = changeOf(event);
  const client = deps.clientFor(connection, event);
  const handle = await client.startReport(change, CHECK_NAME);
  const changed = await client.listChangedFiles(change);
  const { evaluation, skippedForSize } = await evaluationOf(deps, client, current, change, changed);
  const outcome: EvaluationOutcome = {
    passed: evaluation.passed ?? false,
    violations: evaluation.violations,
    totalViolations: evaluation.summary?.total_violations ?? evaluation.violations.length,
    filesEvaluated: evaluation.summary?.total_files ?? 0,
  };
  const detailsUrl = deps.publicUrl ? `${deps.publicUrl.replace(/\/+$/, "")}/evaluations/${evaluation.id}` : undefined;
  const { settings } = await deps.identity.getOrganizationSettings({ organization_id: orgId });
  const report = buildReport(outcome, changed, { skippedForSize }, detailsUrl, {
    blocking: settings?.require_evaluation_pass ?? true,
  });
  // A newer head of the pull request took over meanwhile: its check reports, this one does not
  // (its check run, where the provider has one, ends as cancelled). Asked for by a "Re-run", it does.
  const still = await deps.repo.c.checks.findOne({ id: current.id });
  if (still?.status === "superseded" && !rerun) {
    log.info({ check_id: current.id }, "check superseded by a newer head: result not posted");
    await client.cancelReport?.(change, handle, "Superseded: a newer commit of the pull request is being checked");
    return true;
  }
  await client.completeReport(change, handle, report);
  await deps.repo.c.checks.updateOne(
    { id: current.id },
    {
      status: "completed",
      state: report.state,
      evaluation_id: evaluation.id,
      updated_at: deps.clock.now().toISOString(),
    },
  );
  log.info(
    { check_id: current.id, evaluation_id: evaluation.id, state: report.state, annotations: report.annotations.length },
    "change checked",
  );
  return true;
}

/**
 * The check's evaluation: made once, then kept with the check, so that a check rescheduled after
 * a provider failure posts the same evaluation rather than making another of the same commit.
 */
async function evaluationOf(
  deps: IntegrationsDeps,
  client: ProviderClient,
  check: CheckRecord,
  change: ChangeRef,
  changed: ChangedFile[],
): Promise<{ evaluation: evaluationV1.Evaluation; skippedForSize: number }> {
  const orgId = check.organization_id;
  if (check.evaluation_id) {
    const { evaluation } = await deps.evaluation.getEvaluation({
      organization_id: orgId,
      evaluation_id: check.evaluation_id,
    });
    return { evaluation: evaluation!, skippedForSize: check.skipped_for_size ?? 0 };
  }
  const { files, skippedForSize } = await readFiles(deps, client, change, changed);
  const evaluation = await evaluate(deps, orgId, check.repository, change, files, check.id);
  await deps.repo.c.checks.updateOne(
    { id: check.id },
    { evaluation_id: evaluation.id, skipped_for_size: skippedForSize, updated_at: deps.clock.now().toISOString() },
  );
  return { evaluation, skippedForSize };
}

/** Checks still running for an older head of the same pull request stop posting. */
async function supersedeOlder(deps: IntegrationsDeps, check: CheckRecord): Promise<void> {
  if (check.pull_number === null) return;
  const running = await deps.repo.c.checks.find({
    repository_id: check.repository_id,
    pull_number: check.pull_number,
    status: "running",
  });
  for (const other of running) {
    if (other.id !== check.id && other.head_sha !== check.head_sha && other.created_at <= check.created_at)
      await deps.repo.c.checks.updateOne({ id: other.id, status: "running" }, { status: "superseded" });
  }
}

async function readFiles(
  deps: IntegrationsDeps,
  client: ProviderClient,
  change: ChangeRef,
  changed: ChangedFile[],
): Promise<{ files: evaluationV1.File[]; skippedForSize: number }> {
  const { read, overLimit } = filesToRead(changed, deps.limits);
  let skippedForSize = overLimit;
  let total = 0;
  const files: evaluationV1.File[] = [];
  for (let i = 0; i < read.length; i += deps.readConcurrency) {
    const batch = read.slice(i, i + deps.readConcurrency);
    const contents = await Promise.all(batch.map((f) => client.getFileContent(change.repo, f.path, change.headSha)));
    batch.forEach((f, j) => {
      const content = contents[j];
      if (!content || !isText(content)) return;
      if (content.length > deps.limits.maxFileBytes || total + content.length > deps.limits.maxTotalBytes) {
        skippedForSize++;
        return;
      }
      total += content.length;
      files.push({ path: f.path, content: Buffer.from(content), status: f.status });
    });
  }
  return { files, skippedForSize };
}

const POLL_MS = 300;
const MAX_WAIT_MS = 10 * 60_000;

async function evaluate(
  deps: IntegrationsDeps,
  organizationId: string,
  repository: string,
  change: ChangeRef,
  files: evaluationV1.File[],
  checkId: string,
): Promise<evaluationV1.Evaluation> {
  // The check's id as the request's key: a retry after an answer lost to a restart of the
  // evaluation service gets the evaluation already made, never a second one.
  const res = await deps.evaluation.createEvaluation(
    evaluationV1.CreateEvaluationRequest.fromPartial({
      organization_id: organizationId,
      repository,
      ref: change.headSha,
      base_ref: change.baseSha ?? "",
      files,
      request_id: checkId,
    }),
  );
  let evaluation = res.evaluation!;
  // A large change is queued: it completes on a worker.
  const deadline = Date.now() + MAX_WAIT_MS;
  while (evaluation.status === "pending" && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, POLL_MS));
    evaluation = (
      await deps.evaluation.getEvaluation({ organization_id: organizationId, evaluation_id: evaluation.id })
    ).evaluation!;
  }
  if (evaluation.status !== "completed")
    throw new Error(`evaluation ${evaluation.id} ended ${evaluation.status}: ${evaluation.failure_reason ?? ""}`);
  return evaluation;
}
