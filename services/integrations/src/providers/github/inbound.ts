import { Webhooks } from "@octokit/webhooks";
import { z } from "zod";
import type { InboundEvent, InboundVerifier } from "../../domain/provider.js";
import { ProviderError } from "../../domain/provider.js";
import { headerOf, readPayload } from "../payload.js";

/** GitHub caps a webhook payload at 25 MB; anything larger did not come from GitHub. */
export const GITHUB_MAX_PAYLOAD_BYTES = 25 * 1024 * 1024;

/** The body as GitHub signed it: UTF-8 JSON. Invalid UTF-8 cannot carry a valid signature. */
const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

const id = z.union([z.number().int(), z.string().min(1)]).transform(String);
const sha = z.string().regex(/^[0-9a-f]{40}([0-9a-f]{24})?$/);
const repository = z.object({ id, name: z.string().min(1), owner: z.object({ login: z.string().min(1) }) });
const installation = z.object({ id }).optional();
const pullRef = z.object({ sha, repo: z.object({ id }).nullable() });

const pullRequestPayload = z.object({
  action: z.string(),
  number: z.number().int().positive(),
  repository,
  installation,
  pull_request: z.object({ head: pullRef, base: pullRef }),
});
const pushPayload = z.object({
  ref: z.string().min(1),
  before: sha,
  after: sha,
  forced: z.boolean().default(false),
  deleted: z.boolean().default(false),
  repository,
  installation,
});
const rerequested = z.object({
  head_sha: sha,
  pull_requests: z.array(z.object({ number: z.number().int() })).default([]),
});
const checkRunPayload = z
  .object({ action: z.string(), repository, installation, check_run: rerequested })
  .transform(({ check_run, ...rest }) => ({ ...rest, target: check_run }));
const checkSuitePayload = z
  .object({ action: z.string(), repository, installation, check_suite: rerequested })
  .transform(({ check_suite, ...rest }) => ({ ...rest, target: check_suite }));

const repositoryPayload = z.object({ action: z.string(), repository, installation });

const PULL_ACTIONS = new Set(["opened", "synchronize", "reopened", "closed"]);

/**
 * GitHub's deliveries: X-Hub-Signature-256 (HMAC-SHA256 of the raw body with the App's webhook
 * secret) checked by @octokit/webhooks in constant time; pull_request, push, "Re-run"
 * (check_run and check_suite rerequested) and repository renamed or transferred read into
 * InboundEvent, everything else ignored.
 */
export class GitHubInboundVerifier implements InboundVerifier {
  readonly kind = "github" as const;

  async verify(headers: Record<string, string | undefined>, rawBody: Buffer, secret: string): Promise<boolean> {
    const signature = headerOf(headers, "x-hub-signature-256");
    if (!signature || !secret || rawBody.length === 0 || rawBody.length > GITHUB_MAX_PAYLOAD_BYTES) return false;
    let payload: string;
    try {
      payload = utf8.decode(rawBody);
    } catch {
      return false;
    }
    return new Webhooks({ secret }).verify(payload, signature);
  }

  parse(headers: Record<string, string | undefined>, rawBody: Buffer): InboundEvent {
    const deliveryId = headerOf(headers, "x-github-delivery");
    const event = headerOf(headers, "x-github-event");
    if (!deliveryId || !event) throw new ProviderError("invalid", "missing X-GitHub-Delivery or X-GitHub-Event");
    let body: unknown;
    try {
      body = JSON.parse(utf8.decode(rawBody));
    } catch {
      throw new ProviderError("invalid", "the body is not UTF-8 JSON");
    }
    switch (event) {
      case "ping":
        return { kind: "ping", deliveryId };
      case "pull_request": {
        const p = readPayload(pullRequestPayload, body, event);
        return {
          kind: "pull_request",
          action: PULL_ACTIONS.has(p.action) ? (p.action as "opened" | "synchronize" | "reopened" | "closed") : "other",
          deliveryId,
          ...repoOf(p),
          pullNumber: p.number,
          headSha: p.pull_request.head.sha,
          baseSha: p.pull_request.base.sha,
          // A fork whose repository was deleted has no head repository: still not the base's.
          fromFork: p.pull_request.head.repo?.id !== p.pull_request.base.repo?.id,
        };
      }
      case "push": {
        const p = readPayload(pushPayload, body, event);
        if (p.deleted) return { kind: "ignored", deliveryId, reason: `push deleted ${p.ref}` };
        return {
          kind: "push",
          deliveryId,
          ...repoOf(p),
          ref: p.ref,
          before: p.before,
          after: p.after,
          forced: p.forced,
        };
      }
      case "check_run":
      case "check_suite": {
        const p = readPayload(event === "check_run" ? checkRunPayload : checkSuitePayload, body, event);
        if (p.action !== "rerequested") return { kind: "ignored", deliveryId, reason: `${event} ${p.action}` };
        const pullNumber = p.target.pull_requests[0]?.number;
        return {
          kind: "rerun",
          deliveryId,
          ...repoOf(p),
          headSha: p.target.head_sha,
          ...(pullNumber === undefined ? {} : { pullNumber }),
        };
      }
      case "repository": {
        const p = readPayload(repositoryPayload, body, event);
        if (p.action !== "renamed" && p.action !== "transferred")
          return { kind: "ignored", deliveryId, reason: `repository ${p.action}` };
        return { kind: "repository", action: p.action, deliveryId, ...repoOf(p) };
      }
      default:
        return { kind: "ignored", deliveryId, reason: `event ${event}` };
    }
  }
}

function repoOf(p: { repository: z.output<typeof repository>; installation?: { id: string } | undefined }) {
  return {
    repo: { owner: p.repository.owner.login, name: p.repository.name },
    providerRepoId: p.repository.id,
    ...(p.installation === undefined ? {} : { installationId: p.installation.id }),
  };
}
