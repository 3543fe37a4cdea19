import { errors } from "@verdict/kit";
import { route } from "../http/route.js";
import { policyJson, policySummaryJson } from "../http/mappers.js";
import {
  CreatePolicySchema,
  IdParam,
  ListPoliciesQuery,
  PolicyListSchema,
  PatternTestResultSchema,
  PolicySchema,
  TestPatternsSchema,
  UpdatePolicySchema,
} from "../http/schemas.js";
import { noContent } from "./common.js";

const Params = IdParam("policy_id");

export const policyRoutes = [
  route({
    method: "get",
    path: "/v1/policies",
    operationId: "listPolicies",
    summary: "List policies (built-in and custom)",
    tag: "Policies",
    access: { kind: "scope", scope: "read:policies" },
    rateClass: "reads",
    query: ListPoliciesQuery,
    responses: { 200: { description: "Policies", schema: PolicyListSchema } },
    handler: async ({ query, principal, clients }) => {
      const res = await clients.policy.listPolicies({ organization_id: principal!.organizationId, ...query });
      return { status: 200, body: { policies: res.policies.map(policySummaryJson) } };
    },
  }),
  route({
    method: "get",
    path: "/v1/policies/:policy_id",
    operationId: "getPolicy",
    summary: "Get a policy with its patterns, suggestions and settings",
    tag: "Policies",
    access: { kind: "scope", scope: "read:policies" },
    rateClass: "reads",
    params: Params,
    responses: { 200: { description: "The policy", schema: PolicySchema } },
    handler: async ({ params, principal, clients }) => {
      const res = await clients.policy.getPolicy({
        organization_id: principal!.organizationId,
        policy_id: params.policy_id,
      });
      return { status: 200, body: policyJson(res.policy!) };
    },
  }),
  route({
    method: "post",
    path: "/v1/policies",
    operationId: "createPolicy",
    errors: [409, 422],
    errorNotes: {
      409: "Checked before any pattern is compiled",
      422: "Also for a pattern over the cost budget (compile time, program size, scan time per MiB; the field is patterns[i].value, the message says which limit), and for more custom patterns than the organization's budget (field patterns, MAX_SIZE_EXCEEDED)",
    },
    summary: "Create a custom policy (patterns in RE2 syntax)",
    tag: "Policies",
    access: { kind: "scope", scope: "write:policies" },
    rateClass: "writes",
    body: CreatePolicySchema,
    responses: { 201: { description: "The created policy", schema: PolicySchema } },
    handler: async ({ body, principal, clients }) => {
      const res = await clients.policy.createPolicy({
        organization_id: principal!.organizationId,
        id: body.id,
        name: body.name,
        description: body.description,
        severity: body.severity,
        category: body.category,
        frameworks: body.frameworks,
        patterns: body.patterns,
        suggestions: body.suggestions,
        documentation_url: body.documentation_url ?? "",
        enabled: body.enabled,
      });
      return { status: 201, body: policyJson(res.policy!) };
    },
  }),
  route({
    method: "post",
    path: "/v1/policies/pattern-tests",
    operationId: "testPatterns",
    errors: [422],
    errorNotes: {
      422: "The errors creating a policy with these patterns would give, on the same fields (patterns[i].value, INVALID_FORMAT): not RE2 syntax, matches the empty string, over the cost budget",
    },
    summary:
      "Try custom patterns on sample text: checked as creating a policy checks them, then run with the engine's flags (nothing is stored)",
    tag: "Policies",
    // Spends the same pattern-check workers as creating a policy, so it takes the same scope.
    access: { kind: "scope", scope: "write:policies" },
    rateClass: "writes",
    body: TestPatternsSchema,
    responses: { 200: { description: "Matches in reading order", schema: PatternTestResultSchema } },
    handler: async ({ body, principal, clients }) => {
      const res = await clients.policy.testPatterns({
        organization_id: principal!.organizationId,
        patterns: body.patterns.map((p) => ({ type: p.type, value: p.value, message: "" })),
        text: body.text,
      });
      return { status: 200, body: { matches: res.matches, truncated: res.truncated } };
    },
  }),
  route({
    method: "patch",
    path: "/v1/policies/:policy_id",
    operationId: "updatePolicy",
    errors: [422],
    summary: "Enable, disable or tune a policy",
    tag: "Policies",
    access: { kind: "scope", scope: "write:policies" },
    rateClass: "writes",
    params: Params,
    body: UpdatePolicySchema,
    responses: { 200: { description: "The updated policy", schema: PolicySchema } },
    handler: async ({ params, body, rawBody, principal, clients }) => {
      // JSON may name a setting `__proto__`; the schema's output cannot hold that key, so it is
      // refused here as any other unknown setting is by the policy service, not silently dropped.
      const settings = (rawBody as { settings?: unknown } | undefined)?.settings;
      if (settings && typeof settings === "object" && Object.hasOwn(settings, "__proto__")) {
        throw errors.unprocessable([
          {
            field: "settings.__proto__",
            code: "INVALID_FORMAT",
            message: `Unknown setting '__proto__' for policy '${params.policy_id}'`,
          },
        ]);
      }
      const res = await clients.policy.updatePolicy({
        organization_id: principal!.organizationId,
        policy_id: params.policy_id,
        enabled: body.enabled,
        severity: body.severity,
        settings: body.settings,
      });
      return { status: 200, body: policyJson(res.policy!) };
    },
  }),
  route({
    method: "delete",
    path: "/v1/policies/:policy_id",
    operationId: "deletePolicy",
    errors: [422],
    summary: "Delete a custom policy (built-in policies can only be disabled: 422)",
    tag: "Policies",
    access: { kind: "scope", scope: "write:policies" },
    rateClass: "writes",
    params: Params,
    responses: noContent,
    handler: async ({ params, principal, clients }) => {
      await clients.policy.deletePolicy({ organization_id: principal!.organizationId, policy_id: params.policy_id });
      return { status: 204 };
    },
  }),
];
