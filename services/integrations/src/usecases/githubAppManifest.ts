// The GitHub App one-click set-up (GitHub's "Registering a GitHub App from a manifest"): Verdict
// offers a manifest and a state; the person confirms the App on GitHub, which sends them back
// with a one-time code and the state; the state is used up, the code converted into the App's
// id, private key and webhook secret, and those become the connection. The state is single use,
// expires, and works only for the organization and the caller that started it; only its hash
// is stored.
import { createHash, randomBytes } from "node:crypto";
import { AppError, errors, newId } from "@verdict/kit";
import type { AuditContextInput } from "@verdict/outbox";
import { eventsPath, normalizeBaseUrl } from "../domain/connection.js";
import { ProviderError } from "../domain/provider.js";
import type { IntegrationsDeps } from "../deps.js";
import { convertManifestCode, gitHubAppManifest, manifestFormAction } from "../providers/github/manifest.js";
import type { ConnectionRecord } from "../repo.js";
import { createConnection, providerProblem, refuseAddress } from "./connections.js";

/** GitHub's code is valid for an hour; the state no longer than that. */
export const MANIFEST_STATE_TTL_MS = 60 * 60_000;

/** Where GitHub sends the person back: the dashboard's page that completes the set-up. */
export const MANIFEST_CALLBACK_PATH = "/connections/github/callback";

export interface ManifestStateRecord {
  /** SHA-256 of the state (hex): the state itself is never stored. */
  id: string;
  organization_id: string;
  actor_type: string;
  actor_id: string;
  connection_id: string;
  api_base_url: string;
  action: string;
  manifest_json: string;
  expires_at: string;
  created_at: string;
}

const stateId = (state: string) => createHash("sha256").update(state).digest("hex");

/** GitHub's web address for its API's: api.github.com → github.com; HOST/api/v3 → HOST. */
export function gitHubWebBaseUrl(apiBaseUrl: string): string {
  const url = new URL(normalizeBaseUrl(apiBaseUrl));
  if (url.hostname === "api.github.com") return "https://github.com";
  return `${url.origin}${url.pathname.replace(/\/api\/v3$/, "")}`.replace(/\/+$/, "");
}

function stateProblem(code: "MANIFEST_STATE_INVALID" | "MANIFEST_STATE_EXPIRED"): AppError {
  return new AppError(
    "unprocessable",
    code,
    code === "MANIFEST_STATE_EXPIRED"
      ? "the GitHub App set-up expired; start it again"
      : "the GitHub App set-up is unknown, already used, or was started by someone else; start it again",
    { field: "state" },
  );
}

function actorOf(audit: AuditContextInput | undefined): { actor_type: string; actor_id: string } {
  if (!audit?.actor_id)
    throw errors.unprocessable([{ field: "audit", code: "REQUIRED", message: "who asks is required" }]);
  return { actor_type: audit.actor_type, actor_id: audit.actor_id };
}

export async function startGitHubAppManifest(
  deps: IntegrationsDeps,
  cmd: {
    organizationId: string;
    apiBaseUrl: string;
    githubOrganization?: string | undefined;
    publicOrigin: string;
    audit?: AuditContextInput | undefined;
  },
): Promise<{ state: string; action: string; manifestJson: string; expiresAt: string; connectionId: string }> {
  const actor = actorOf(cmd.audit);
  const apiBaseUrl = normalizeBaseUrl(cmd.apiBaseUrl);
  await refuseAddress(deps, apiBaseUrl);
  const now = deps.clock.now();
  const state = randomBytes(32).toString("base64url");
  const connectionId = newId("conn", now.getTime());
  const origin = cmd.publicOrigin.replace(/\/+$/, "");
  const manifest = gitHubAppManifest({
    // GitHub App names are unique on GitHub: the person may change it on GitHub's page.
    name: `Verdict ${connectionId.slice(-6)}`,
    publicUrl: origin,
    webhookUrl: `${origin}${eventsPath("github", connectionId)}`,
    redirectUrl: `${origin}${MANIFEST_CALLBACK_PATH}`,
  });
  const action = manifestFormAction(state, {
    webBaseUrl: gitHubWebBaseUrl(apiBaseUrl),
    ...(cmd.githubOrganization ? { organization: cmd.githubOrganization } : {}),
  });
  const record: ManifestStateRecord = {
    id: stateId(state),
    organization_id: cmd.organizationId,
    ...actor,
    connection_id: connectionId,
    api_base_url: apiBaseUrl,
    action,
    manifest_json: JSON.stringify(manifest),
    expires_at: new Date(now.getTime() + MANIFEST_STATE_TTL_MS).toISOString(),
    created_at: now.toISOString(),
  };
  await deps.repo.c.manifestStates.insertOne(record);
  return { state, action, manifestJson: record.manifest_json, expiresAt: record.expires_at, connectionId };
}

/** The manifest a pending state posts to GitHub; not found once used or expired. */
export async function getGitHubAppManifest(
  deps: IntegrationsDeps,
  cmd: { state: string },
): Promise<{ action: string; manifestJson: string }> {
  const record = await deps.repo.c.manifestStates.findOne({ id: stateId(cmd.state) });
  if (!record || record.expires_at <= deps.clock.now().toISOString()) throw errors.notFound("app_manifest", "(state)");
  return { action: record.action, manifestJson: record.manifest_json };
}

export async function completeGitHubAppManifest(
  deps: IntegrationsDeps,
  cmd: { organizationId: string; state: string; code: string; audit?: AuditContextInput | undefined },
): Promise<ConnectionRecord> {
  const actor = actorOf(cmd.audit);
  const id = stateId(cmd.state);
  const record = await deps.repo.c.manifestStates.findOne({ id });
  // Another organization's or another person's state is not theirs to use up.
  if (
    !record ||
    record.organization_id !== cmd.organizationId ||
    record.actor_type !== actor.actor_type ||
    record.actor_id !== actor.actor_id
  )
    throw stateProblem("MANIFEST_STATE_INVALID");
  // Used up by the first to get here (a replay, even a concurrent one, finds it gone).
  if (!(await deps.repo.c.manifestStates.deleteOne({ id }))) throw stateProblem("MANIFEST_STATE_INVALID");
  if (record.expires_at <= deps.clock.now().toISOString()) throw stateProblem("MANIFEST_STATE_EXPIRED");
  await refuseAddress(deps, record.api_base_url);
  let app;
  try {
    app = await convertManifestCode(cmd.code, record.api_base_url, deps.fetch);
  } catch (err) {
    // A code GitHub does not know (expired after its hour, or used): not_found on code.
    if (err instanceof ProviderError) throw providerProblem(err, "code");
    throw err;
  }
  return createConnection(deps, {
    id: record.connection_id,
    organizationId: cmd.organizationId,
    provider: "github",
    baseUrl: record.api_base_url,
    token: "",
    webhookSecret: app.webhookSecret,
    appId: app.appId,
    privateKey: app.privateKey,
    audit: cmd.audit,
  });
}
