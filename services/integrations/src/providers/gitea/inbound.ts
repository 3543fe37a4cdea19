// Gitea's (and Forgejo's) webhook deliveries: X-Gitea-Signature is the hex HMAC-SHA256 of the raw
// body keyed with the webhook's secret (Forgejo also sends it as X-Forgejo-Signature), checked in
// constant time before the body is parsed at all.
import { createHmac, timingSafeEqual } from "node:crypto";
import { ProviderError, type InboundEvent, type InboundVerifier, type RepoRef } from "../../domain/provider.js";

const HEX_SHA256 = /^[0-9a-f]{64}$/i;

interface GiteaRepository {
  id: number;
  name: string;
  full_name: string;
  owner: { login?: string; username?: string };
}

const PR_ACTIONS = new Set(["opened", "reopened", "closed"]);

export class GiteaInbound implements InboundVerifier {
  readonly kind = "gitea" as const;

  verify(headers: Record<string, string | undefined>, rawBody: Buffer, secret: string): Promise<boolean> {
    const given = headers["x-gitea-signature"] ?? headers["x-forgejo-signature"] ?? "";
    if (!secret || !HEX_SHA256.test(given)) return Promise.resolve(false);
    const expected = createHmac("sha256", secret).update(rawBody).digest();
    return Promise.resolve(timingSafeEqual(expected, Buffer.from(given, "hex")));
  }

  parse(headers: Record<string, string | undefined>, rawBody: Buffer): InboundEvent {
    const deliveryId = headers["x-gitea-delivery"] ?? headers["x-forgejo-delivery"];
    if (!deliveryId || deliveryId.length > 200) throw new ProviderError("invalid", "X-Gitea-Delivery is missing");
    const event = headers["x-gitea-event"] ?? headers["x-forgejo-event"] ?? "";
    let body: unknown;
    try {
      body = JSON.parse(rawBody.toString("utf8"));
    } catch {
      throw new ProviderError("invalid", "the body is not JSON");
    }
    if (!isObject(body)) throw new ProviderError("invalid", "the body is not a JSON object");
    if (event === "pull_request") return pullRequest(deliveryId, body);
    if (event === "push") return push(deliveryId, body);
    return { kind: "ignored", deliveryId, reason: `event ${event || "(none)"} is not checked` };
  }
}

function pullRequest(deliveryId: string, body: Record<string, unknown>): InboundEvent {
  const pr = body.pull_request;
  const repository = repositoryOf(body.repository);
  if (!isObject(pr) || !isObject(pr.head) || !isObject(pr.base)) throw invalid("pull_request");
  const number = pr.number ?? body.number;
  const headSha = pr.head.sha;
  const baseSha = pr.base.sha;
  if (!Number.isInteger(number) || !isSha(headSha) || !isSha(baseSha)) throw invalid("pull_request");
  const raw = typeof body.action === "string" ? body.action : "";
  const action = raw === "synchronized" ? "synchronize" : PR_ACTIONS.has(raw) ? raw : "other";
  // The head lives in another repository: a fork's pull request.
  const fromFork = pr.head.repo_id !== undefined && pr.head.repo_id !== pr.base.repo_id;
  return {
    kind: "pull_request",
    action: action as "opened" | "synchronize" | "reopened" | "closed" | "other",
    deliveryId,
    repo: repository.ref,
    providerRepoId: repository.id,
    pullNumber: number as number,
    headSha,
    baseSha,
    fromFork,
  };
}

function push(deliveryId: string, body: Record<string, unknown>): InboundEvent {
  const repository = repositoryOf(body.repository);
  const { ref, before, after } = body;
  if (typeof ref !== "string" || !isSha(before) || !isSha(after)) throw invalid("push");
  if (/^0+$/.test(after)) return { kind: "ignored", deliveryId, reason: `push deleted ${ref}` };
  // Gitea's push payload does not say whether the push was forced.
  return {
    kind: "push",
    deliveryId,
    repo: repository.ref,
    providerRepoId: repository.id,
    ref,
    before,
    after,
    forced: false,
  };
}

function repositoryOf(value: unknown): { ref: RepoRef; id: string } {
  if (!isObject(value)) throw invalid("repository");
  const r = value as unknown as GiteaRepository;
  const owner = isObject(r.owner) ? (r.owner.login ?? r.owner.username) : undefined;
  if (!Number.isInteger(r.id) || typeof r.name !== "string" || typeof owner !== "string") throw invalid("repository");
  return { ref: { owner, name: r.name }, id: String(r.id) };
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function isSha(v: unknown): v is string {
  return typeof v === "string" && /^[0-9a-f]{40}([0-9a-f]{24})?$/.test(v);
}

function invalid(what: string): ProviderError {
  return new ProviderError("invalid", `the payload's ${what} is missing or malformed`);
}
