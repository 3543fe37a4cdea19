// The evaluation service's configuration variables, declared once: its own process (bin.ts)
// and the all-in-one process read the same ones (docs/configuration.md).
import { z } from "zod";
import { allowPrivateVar, boolVar } from "@verdict/kit";
import {
  addressVar,
  DEFAULT_ADDRESSES,
  DEFAULT_GRPC_PORTS,
  grpcServiceConfig,
  orgMaxEvaluationsInFlightVar,
  positiveInt,
  documentVariables,
} from "@verdict/runtime";
import { DEFAULT_LIMITS, type EvaluationServiceOptions } from "./main.js";
import {
  AWS_STS_URL,
  GITHUB_API_URL,
  SLACK_API_URL,
  STRIPE_API_URL,
  DEFAULT_LIVE_VERIFICATION_PER_MINUTE,
  DEFAULT_LIVE_VERIFICATION_TIMEOUT_MS,
} from "./liveVerifier.js";

const threads = () => z.coerce.number().int().positive().max(256).optional();

export const evaluationConfig = z.object({
  /** Evaluations of at least this many files, or bytes of content, run asynchronously. */
  VERDICT_ASYNC_MIN_FILES: positiveInt(DEFAULT_LIMITS.asyncMinFiles),
  VERDICT_ASYNC_MIN_BYTES: positiveInt(DEFAULT_LIMITS.asyncMinBytes),
  /** Worker threads that scan files (and compile patterns); unset: one per core but one. */
  VERDICT_SCAN_WORKERS: threads(),
  VERDICT_SCAN_THREADS_PER_ORG: threads(),
  /** A synchronous evaluation fails with EVALUATION_TIMEOUT after this long on the scan threads. */
  VERDICT_SCAN_TIMEOUT_MS: positiveInt(DEFAULT_LIMITS.syncTimeoutMs),
  /** A synchronous evaluation is given up (503) after this long, waiting for a thread included. */
  VERDICT_SCAN_MAX_WAIT_MS: positiveInt(DEFAULT_LIMITS.syncMaxWaitMs),
  /** A queued evaluation fails (status failed) when its scan runs longer than this. */
  VERDICT_ASYNC_SCAN_TIMEOUT_MS: positiveInt(DEFAULT_LIMITS.asyncTimeoutMs),
  /** Synchronous evaluations of one organization running or waiting at once; more answer 429. */
  VERDICT_ORG_MAX_EVALUATIONS_IN_FLIGHT: orgMaxEvaluationsInFlightVar(),
  /** Queued evaluations of one organization, and the bytes of content they hold; more answer 429. */
  VERDICT_ORG_MAX_QUEUED_EVALUATIONS: positiveInt(DEFAULT_LIMITS.maxQueuedPerOrganization),
  VERDICT_ORG_MAX_QUEUED_BYTES: positiveInt(DEFAULT_LIMITS.maxQueuedBytesPerOrganization),
  /** Live verification (organizations that turn it on): each provider call's deadline, and calls per organization and minute. */
  VERDICT_LIVE_VERIFICATION_TIMEOUT_MS: positiveInt(DEFAULT_LIVE_VERIFICATION_TIMEOUT_MS),
  VERDICT_LIVE_VERIFICATION_PER_MINUTE: positiveInt(DEFAULT_LIVE_VERIFICATION_PER_MINUTE),
  /** Where AWS STS is asked (a private STS-compatible endpoint, or a test server). */
  VERDICT_LIVE_VERIFICATION_AWS_STS_URL: z.url({ protocol: /^https?$/ }).default(AWS_STS_URL),
  /** Where GitHub's REST API is asked (GET /user): GitHub Enterprise Server's /api/v3, or a test server. */
  VERDICT_LIVE_VERIFICATION_GITHUB_API_URL: z.url({ protocol: /^https?$/ }).default(GITHUB_API_URL),
  /** Where Slack's Web API (auth.test) and Stripe's API (GET /v1/balance) are asked (a test server). */
  VERDICT_LIVE_VERIFICATION_SLACK_API_URL: z.url({ protocol: /^https?$/ }).default(SLACK_API_URL),
  VERDICT_LIVE_VERIFICATION_STRIPE_API_URL: z.url({ protocol: /^https?$/ }).default(STRIPE_API_URL),
  VERDICT_LIVE_VERIFICATION_ALLOW_PRIVATE: allowPrivateVar(),
});

export type EvaluationConfig = z.infer<typeof evaluationConfig>;

/** The evaluation service as its own process (bin.ts). */
export const evaluationProcessConfig = grpcServiceConfig(DEFAULT_GRPC_PORTS.evaluation).extend({
  ...evaluationConfig.shape,
  VERDICT_POLICY_ADDRESS: addressVar(DEFAULT_ADDRESSES.policy),
  VERDICT_IDENTITY_ADDRESS: addressVar(DEFAULT_ADDRESSES.identity),
  /** false: serve the API only and leave queued evaluations to the worker instances. */
  VERDICT_EVALUATION_WORKER: boolVar(true),
});

/** The service options these variables set. */
export function evaluationOptions(
  c: EvaluationConfig,
): Pick<EvaluationServiceOptions, "limits" | "scanWorkers" | "scanThreadsPerOrganization" | "liveVerification"> {
  return {
    liveVerification: {
      timeoutMs: c.VERDICT_LIVE_VERIFICATION_TIMEOUT_MS,
      perMinute: c.VERDICT_LIVE_VERIFICATION_PER_MINUTE,
      awsStsUrl: c.VERDICT_LIVE_VERIFICATION_AWS_STS_URL,
      githubApiUrl: c.VERDICT_LIVE_VERIFICATION_GITHUB_API_URL,
      slackApiUrl: c.VERDICT_LIVE_VERIFICATION_SLACK_API_URL,
      stripeApiUrl: c.VERDICT_LIVE_VERIFICATION_STRIPE_API_URL,
      allowPrivate: c.VERDICT_LIVE_VERIFICATION_ALLOW_PRIVATE,
    },
    limits: {
      asyncMinFiles: c.VERDICT_ASYNC_MIN_FILES,
      asyncMinBytes: c.VERDICT_ASYNC_MIN_BYTES,
      syncTimeoutMs: c.VERDICT_SCAN_TIMEOUT_MS,
      syncMaxWaitMs: Math.max(c.VERDICT_SCAN_MAX_WAIT_MS, c.VERDICT_SCAN_TIMEOUT_MS),
      asyncTimeoutMs: c.VERDICT_ASYNC_SCAN_TIMEOUT_MS,
      maxInFlightPerOrganization: c.VERDICT_ORG_MAX_EVALUATIONS_IN_FLIGHT,
      maxQueuedPerOrganization: c.VERDICT_ORG_MAX_QUEUED_EVALUATIONS,
      maxQueuedBytesPerOrganization: c.VERDICT_ORG_MAX_QUEUED_BYTES,
    },
    ...(c.VERDICT_SCAN_WORKERS !== undefined ? { scanWorkers: c.VERDICT_SCAN_WORKERS } : {}),
    ...(c.VERDICT_SCAN_THREADS_PER_ORG !== undefined
      ? { scanThreadsPerOrganization: c.VERDICT_SCAN_THREADS_PER_ORG }
      : {}),
  };
}

documentVariables({
  VERDICT_ASYNC_MIN_FILES:
    "Evaluations with at least this many files are queued (202, `pending`) and finished by a worker",
  VERDICT_ASYNC_MIN_BYTES: "Evaluations with at least this many bytes of content are queued too",
  VERDICT_SCAN_WORKERS: {
    meaning:
      "Worker threads that match files against the policies (see [How an evaluation is checked](policies.md#how-an-evaluation-is-checked)); queued evaluations scan on as many again, at a low CPU priority",
    default: "cores − 1 (at least 1)",
  },
  VERDICT_SCAN_THREADS_PER_ORG: {
    meaning: "Scan threads one organization may hold at once",
    default: "`VERDICT_SCAN_WORKERS` − 1 (at least 1)",
  },
  VERDICT_SCAN_TIMEOUT_MS:
    "Deadline of a synchronous evaluation's scan, counting the time it runs on the scan threads, not the time it waits for one behind other organizations (then `422 EVALUATION_TIMEOUT`)",
  VERDICT_SCAN_MAX_WAIT_MS:
    "Overall bound of a synchronous evaluation's scan, waiting for a thread included (then `503`; retrying may help); at least `VERDICT_SCAN_TIMEOUT_MS`",
  VERDICT_ASYNC_SCAN_TIMEOUT_MS: "Deadline of a queued evaluation's scan (then `failed` with a `failure_reason`)",
  VERDICT_ORG_MAX_QUEUED_EVALUATIONS:
    'Queued (asynchronous) evaluations of one organization waiting or scanning at once; one more answers 429 with `details.window: "queued"` and `Retry-After: 5`',
  VERDICT_ORG_MAX_QUEUED_BYTES:
    "Bytes of content one organization's queued evaluations may hold (one evaluation is always let in when none is queued); one more that would pass it answers 429 like the above",
  VERDICT_LIVE_VERIFICATION_TIMEOUT_MS:
    "Deadline of one call to a provider for [live verification](detection.md#live-verification-opt-in), which an organization's admin turns on with `PATCH /v1/organization` `settings.live_verification` (off by default); past it the credential is `unknown`",
  VERDICT_LIVE_VERIFICATION_PER_MINUTE:
    "Provider calls one organization's evaluations may make per minute for [live verification](detection.md#live-verification-opt-in), per evaluation service instance; past it a credential is `unknown`",
  VERDICT_LIVE_VERIFICATION_AWS_STS_URL:
    "Where [live verification](detection.md#live-verification-opt-in) asks AWS STS (GetCallerIdentity): its host is the only one AWS credentials are sent to",
  VERDICT_LIVE_VERIFICATION_GITHUB_API_URL:
    "Where [live verification](detection.md#live-verification-opt-in) asks GitHub (`GET /user`; GitHub Enterprise Server: `https://HOST/api/v3`): its host is the only one GitHub tokens are sent to",
  VERDICT_LIVE_VERIFICATION_SLACK_API_URL:
    "Where [live verification](detection.md#live-verification-opt-in) asks Slack (`auth.test` of its Web API): its host is the only one Slack tokens are sent to",
  VERDICT_LIVE_VERIFICATION_STRIPE_API_URL:
    "Where [live verification](detection.md#live-verification-opt-in) asks Stripe (`GET /v1/balance`): its host is the only one Stripe keys are sent to",
  VERDICT_LIVE_VERIFICATION_ALLOW_PRIVATE:
    "Loopback, private, link-local and metadata addresses the live verification endpoints may be at: `false` (none), comma-separated addresses and CIDR ranges, or `true` (all: development and tests only)",
  VERDICT_EVALUATION_WORKER:
    "`false`: serve the API only and leave queued evaluations to worker instances (which share them through one consumer group)",
});
