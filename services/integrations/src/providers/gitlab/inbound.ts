import { createHash, timingSafeEqual } from "node:crypto";
import { z } from "zod";
import type { InboundEvent, InboundVerifier } from "../../domain/provider.js";
import { ProviderError } from "../../domain/provider.js";
import { headerOf, readPayload } from "../payload.js";

/** GitLab's default limit on a webhook payload (25 MB); larger did not come from GitLab. */
export const GITLAB_MAX_PAYLOAD_BYTES = 25 * 1024 * 1024;

/** Equal-length digests, so the comparison takes the same time whatever the token's length. */
const digest = (text: string) => createHash("sha256").update(text, "utf8").digest();

const sha = z.string().regex(/^[0-9a-f]{40}([0-9a-f]{24})?$/);
const project = z.object({ id: z.number().int(), path_with_namespace: z.string().regex(/^.+\/[^/]+$/) });

const mergeRequestHook = z.object({
  object_kind: z.literal("merge_request"),
  project,
  object_attributes: z.object({
    iid: z.number().int().positive(),
    action: z.string().optional(),
    oldrev: z.string().optional(),
    source_project_id: z.number().int(),
    target_project_id: z.number().int(),
    last_commit: z.object({ id: sha }),
  }),
});
const pushHook = z.object({
  object_kind: z.literal("push"),
  ref: z.string().min(1),
  before: sha,
  after: sha,
  project,
});

const NO_COMMIT = /^0+$/;

/**
 * GitLab's deliveries: the hook's secret token comes back whole in X-Gitlab-Token (no
 * signature), compared in constant time; merge request and push hooks read into InboundEvent.
 * X-Gitlab-Event-UUID is the delivery id (the same on GitLab's retries of one event).
 */
export class GitLabInboundVerifier implements InboundVerifier {
  readonly kind = "gitlab" as const;

  async verify(headers: Record<string, string | undefined>, rawBody: Buffer, secret: string): Promise<boolean> {
    const token = headerOf(headers, "x-gitlab-token");
    if (token === undefined || !secret || rawBody.length > GITLAB_MAX_PAYLOAD_BYTES) return false;
    return timingSafeEqual(digest(token), digest(secret));
  }

  parse(headers: Record<string, string | undefined>, rawBody: Buffer): InboundEvent {
    const deliveryId = headerOf(headers, "x-gitlab-event-uuid");
    const event = headerOf(headers, "x-gitlab-event");
    if (!deliveryId || !event) throw new ProviderError("invalid", "missing X-Gitlab-Event-UUID or X-Gitlab-Event");
    let body: unknown;
    try {
      body = JSON.parse(rawBody.toString("utf8"));
    } catch {
      throw new ProviderError("invalid", "the body is not JSON");
    }
    if (event === "Merge Request Hook") {
      const p = readPayload(mergeRequestHook, body, event);
      const mr = p.object_attributes;
      return {
        kind: "pull_request",
        action: mergeRequestAction(mr.action, mr.oldrev),
        deliveryId,
        ...repoOf(p.project),
        pullNumber: mr.iid,
        headSha: mr.last_commit.id,
        // The hook does not carry the target branch's commit; the merge request's diffs are
        // listed by its iid, so nothing needs it.
        baseSha: "",
        fromFork: mr.source_project_id !== mr.target_project_id,
      };
    }
    if (event === "Push Hook") {
      const p = readPayload(pushHook, body, event);
      if (NO_COMMIT.test(p.after)) return { kind: "ignored", deliveryId, reason: `push deleted ${p.ref}` };
      // GitLab does not say whether a push was forced.
      return {
        kind: "push",
        deliveryId,
        ...repoOf(p.project),
        ref: p.ref,
        before: p.before,
        after: p.after,
        forced: false,
      };
    }
    return { kind: "ignored", deliveryId, reason: `event ${event}` };
  }
}

/** "update" with oldrev is new commits pushed to the source branch; without, an edit of the title or labels. */
function mergeRequestAction(action: string | undefined, oldrev: string | undefined) {
  switch (action) {
    case "open":
      return "opened";
    case "reopen":
      return "reopened";
    case "close":
    case "merge":
      return "closed";
    case "update":
      return oldrev ? "synchronize" : "other";
    default:
      return "other";
  }
}

/** GitLab's nested groups go whole into owner ("group/sub"). */
function repoOf(p: { id: number; path_with_namespace: string }) {
  const slash = p.path_with_namespace.lastIndexOf("/");
  return {
    repo: { owner: p.path_with_namespace.slice(0, slash), name: p.path_with_namespace.slice(slash + 1) },
    providerRepoId: String(p.id),
  };
}
