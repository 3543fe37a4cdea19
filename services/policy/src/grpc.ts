// gRPC handlers: map proto <-> use cases, nothing else.
import { commandOf, messageFields, type AsyncService } from "@verdict/kit";
import { policyV1 } from "@verdict/proto";
import type { PolicyDeps } from "./deps.js";
import type { EffectivePolicy } from "./domain/policy.js";
import type { RepositoryRecord } from "./repo.js";
import { createPolicy } from "./usecases/createPolicy.js";
import { deletePolicy } from "./usecases/deletePolicy.js";
import { connectRepository } from "./usecases/connectRepository.js";
import { disconnectRepository } from "./usecases/disconnectRepository.js";
import { renameRepository } from "./usecases/renameRepository.js";
import { getPolicy } from "./usecases/getPolicy.js";
import { listPolicies } from "./usecases/listPolicies.js";
import { countRepositories, listRepositories } from "./usecases/listRepositories.js";
import { resolvePolicies } from "./usecases/resolvePolicies.js";
import { testPatterns } from "./usecases/testPatterns.js";
import { updatePolicy } from "./usecases/updatePolicy.js";

type Def = typeof policyV1.PolicyServiceService;

function toPolicy(p: EffectivePolicy): policyV1.Policy {
  return {
    ...messageFields(p, [
      "id",
      "name",
      "description",
      "severity",
      "enabled",
      "category",
      "frameworks",
      "suggestions",
      "settings",
      "documentation_url",
      "builtin",
    ]),
    // A pattern answers its rule, not what the engine keeps of it.
    patterns: p.patterns.map((pattern) => messageFields(pattern, ["type", "value", "message"])),
    // A built-in policy has no times of its own.
    created_at: p.created_at ?? "",
    updated_at: p.updated_at ?? "",
  };
}

function toRepository(r: RepositoryRecord): policyV1.Repository {
  return messageFields(r, [
    "id",
    "name",
    "provider",
    "default_branch",
    "connected_at",
    "last_evaluation",
    "provider_repo_id",
    "connection_id",
  ]);
}

export function policyHandlers(deps: PolicyDeps): AsyncService<Def> {
  return {
    async listPolicies(req) {
      return { policies: (await listPolicies(deps, commandOf(req))).map(toPolicy) };
    },
    async getPolicy(req) {
      return { policy: toPolicy(await getPolicy(deps, commandOf(req))) };
    },
    async createPolicy(req) {
      // The request's fields are the new policy's (CustomPolicyInput names the ones it reads).
      return { policy: toPolicy(await createPolicy(deps, { ...commandOf(req), policy: req })) };
    },
    async updatePolicy(req) {
      return { policy: toPolicy(await updatePolicy(deps, commandOf(req))) };
    },
    async deletePolicy(req) {
      await deletePolicy(deps, commandOf(req));
      return {};
    },
    async resolvePolicies(req) {
      const { policies, version } = await resolvePolicies(deps, commandOf(req));
      if (req.known_version && req.known_version === version) return { policies: [], version, unchanged: true };
      return { policies, version, unchanged: false };
    },
    async listRepositories(req) {
      return { repositories: (await listRepositories(deps, commandOf(req))).map(toRepository) };
    },
    async connectRepository(req) {
      return { repository: toRepository(await connectRepository(deps, commandOf(req))) };
    },
    async disconnectRepository(req) {
      await disconnectRepository(deps, commandOf(req));
      return {};
    },
    async renameRepository(req) {
      const repository = await renameRepository(deps, {
        organizationId: req.organization_id,
        repositoryId: req.repository_id,
        name: req.name,
      });
      return { repository: toRepository(repository) };
    },
    async countRepositories(req) {
      return { count: await countRepositories(deps, commandOf(req)) };
    },
    async testPatterns(req) {
      return testPatterns(deps, commandOf(req));
    },
  };
}
