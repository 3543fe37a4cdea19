// gRPC handlers: map proto <-> use cases, nothing else.
import { messageFields, type AsyncService } from "@verdict/kit";
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
    id: p.id,
    name: p.name,
    description: p.description,
    severity: p.severity,
    enabled: p.enabled,
    category: p.category,
    frameworks: p.frameworks,
    patterns: p.patterns.map((pattern) => ({ type: pattern.type, value: pattern.value, message: pattern.message })),
    suggestions: p.suggestions,
    settings: p.settings,
    documentation_url: p.documentation_url,
    builtin: p.builtin,
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
      // An empty string filter means "not filtered", as it would in a query string.
      const policies = await listPolicies(deps, {
        organizationId: req.organization_id,
        enabled: req.enabled,
        category: req.category || undefined,
        severity: req.severity || undefined,
      });
      return { policies: policies.map(toPolicy) };
    },
    async getPolicy(req) {
      return {
        policy: toPolicy(await getPolicy(deps, { organizationId: req.organization_id, policyId: req.policy_id })),
      };
    },
    async createPolicy(req) {
      const policy = await createPolicy(deps, {
        organizationId: req.organization_id,
        policy: {
          id: req.id,
          name: req.name,
          description: req.description,
          severity: req.severity,
          category: req.category,
          frameworks: req.frameworks,
          patterns: req.patterns,
          suggestions: req.suggestions,
          documentation_url: req.documentation_url,
          enabled: req.enabled,
        },
        audit: req.audit,
      });
      return { policy: toPolicy(policy) };
    },
    async updatePolicy(req) {
      const policy = await updatePolicy(deps, {
        organizationId: req.organization_id,
        policyId: req.policy_id,
        enabled: req.enabled,
        severity: req.severity,
        settings: req.settings,
        audit: req.audit,
      });
      return { policy: toPolicy(policy) };
    },
    async deletePolicy(req) {
      await deletePolicy(deps, { organizationId: req.organization_id, policyId: req.policy_id, audit: req.audit });
      return {};
    },
    async resolvePolicies(req) {
      const { policies, version } = await resolvePolicies(deps, {
        organizationId: req.organization_id,
        policyIds: req.policy_ids,
      });
      if (req.known_version && req.known_version === version) return { policies: [], version, unchanged: true };
      return { policies, version, unchanged: false };
    },
    async listRepositories(req) {
      return {
        repositories: (await listRepositories(deps, { organizationId: req.organization_id })).map(toRepository),
      };
    },
    async connectRepository(req) {
      const repository = await connectRepository(deps, {
        organizationId: req.organization_id,
        provider: req.provider,
        name: req.name,
        defaultBranch: req.default_branch,
        providerRepoId: req.provider_repo_id || undefined,
        connectionId: req.connection_id || undefined,
        audit: req.audit,
      });
      return { repository: toRepository(repository) };
    },
    async disconnectRepository(req) {
      await disconnectRepository(deps, {
        organizationId: req.organization_id,
        repositoryId: req.repository_id,
        audit: req.audit,
      });
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
      return { count: await countRepositories(deps, { organizationId: req.organization_id }) };
    },
    async testPatterns(req) {
      return testPatterns(deps, { organizationId: req.organization_id, patterns: req.patterns, text: req.text });
    },
  };
}
