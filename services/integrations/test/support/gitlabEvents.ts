// GitLab's webhook deliveries, built with the fields its "Webhook events" documentation lists for
// merge request and push events (no GitLab server runs here: docs/integrations/gitlab.md). GitLab
// sends the hook's secret token back whole in X-Gitlab-Token; X-Gitlab-Event-UUID names the delivery.
import { randomUUID } from "node:crypto";

export interface GitLabProjectRef {
  id: number;
  path_with_namespace: string;
  default_branch?: string;
}

/** A delivery's headers and body, as GitLab posts them. */
export function gitlabDelivery(event: string, payload: unknown, token: string, uuid: string = randomUUID()) {
  return {
    headers: {
      "Content-Type": "application/json",
      "X-Gitlab-Event": event,
      "X-Gitlab-Token": token,
      "X-Gitlab-Event-UUID": uuid,
    },
    body: Buffer.from(JSON.stringify(payload)),
  };
}

function projectOf(p: GitLabProjectRef) {
  return {
    id: p.id,
    name: p.path_with_namespace.split("/").pop(),
    path_with_namespace: p.path_with_namespace,
    default_branch: p.default_branch ?? "main",
  };
}

/** A "Merge Request Hook" payload (object_kind merge_request), opened unless `attributes` say otherwise. */
export function mergeRequestHook(
  project: GitLabProjectRef,
  attributes: Record<string, unknown> & { iid: number; headSha: string },
) {
  const { headSha, ...rest } = attributes;
  return {
    object_kind: "merge_request",
    event_type: "merge_request",
    project: projectOf(project),
    object_attributes: {
      action: "open",
      source_project_id: project.id,
      target_project_id: project.id,
      source_branch: "feature",
      target_branch: project.default_branch ?? "main",
      last_commit: { id: headSha },
      ...rest,
    },
  };
}

/** A "Push Hook" payload (object_kind push). */
export function pushHook(project: GitLabProjectRef, push: { ref: string; before: string; after: string }) {
  return { object_kind: "push", event_name: "push", ...push, project_id: project.id, project: projectOf(project) };
}
