import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { TOPICS, type CloudEvent } from "@verdict/bus";
import { policyV1 } from "@verdict/proto";
import { fieldError, startPolicyHarness, type PolicyHarness } from "../test/harness.js";
import { eventually } from "../../../test/support/eventually.js";
import { BUILTIN_POLICIES, type BuiltinPolicy } from "./domain/builtins/index.js";
import type { PolicyChangedData } from "./usecases/events.js";

const ORG_A = "org_a";
const builtinIds = (keep: (p: BuiltinPolicy) => boolean = () => true) => BUILTIN_POLICIES.filter(keep).map((p) => p.id);
const ORG_B = "org_b";

let h: PolicyHarness;
const changes: CloudEvent<PolicyChangedData>[] = [];

beforeAll(async () => {
  h = await startPolicyHarness();
  await h.bus.subscribe<PolicyChangedData>(TOPICS.policyChanged, "test", async (e) => void changes.push(e));
});
afterAll(() => h.stop());

function customPolicy(id: string, overrides: Partial<policyV1.CreatePolicyRequest> = {}): policyV1.CreatePolicyRequest {
  return {
    organization_id: ORG_A,
    id,
    name: `Policy ${id}`,
    description: "Test policy",
    severity: "warning",
    category: "",
    frameworks: ["soc2:CC8.1"],
    patterns: [
      policyV1.CustomPattern.fromPartial({
        type: "regex",
        value: String.raw`console\.log\(`,
        message: "console.log call",
      }),
    ],
    suggestions: [{ text: "Use the logger" }],
    documentation_url: "",
    ...overrides,
  };
}

describe("built-in policies", () => {
  it("lists every built-in with effective values and returns the full policy on get", async () => {
    const { policies } = await h.client.listPolicies({ organization_id: ORG_A });
    expect(policies.map((p) => p.id)).toEqual(builtinIds());
    expect(policies.map((p) => p.id)).toEqual(
      expect.arrayContaining(["aws-credentials", "dangerous-eval", "hardcoded-credentials", "private-keys"]),
    );
    const { policy } = await h.client.getPolicy({ organization_id: ORG_A, policy_id: "hardcoded-credentials" });
    expect(policy).toMatchObject({
      id: "hardcoded-credentials",
      severity: "error",
      enabled: true,
      category: "secrets",
      builtin: true,
      settings: { detect_api_keys: false },
      documentation_url: "https://verdict.dev/docs/policies/hardcoded-credentials",
      frameworks: expect.arrayContaining(["owasp-asvs:V2.10.4"]),
    });
    expect(policy!.patterns).toEqual([
      expect.objectContaining({ type: "regex", message: "Hardcoded password or secret" }),
      expect.objectContaining({ type: "regex", message: "Password compared with a hardcoded value" }),
      expect.objectContaining({ type: "regex", message: "Password compared with a hardcoded value" }),
      expect.objectContaining({ type: "regex", message: "Password passed to curl with -u/--user" }),
      expect.objectContaining({
        type: "regex",
        message: "Credential in the Authorization or API-key header of a curl command",
      }),
    ]);
    expect(policy!.suggestions[0]!.text).toMatch(/secrets manager/);
  });

  it("refuses to delete a built-in and says to disable it instead", async () => {
    await expect(h.client.deletePolicy({ organization_id: ORG_A, policy_id: "aws-credentials" })).rejects.toMatchObject(
      {
        kind: "unprocessable",
        message: "Built-in policies cannot be deleted; disable them instead",
        ...fieldError("policy_id", "INVALID_FORMAT"),
      },
    );
  });

  it("updates enabled, severity and settings, merging settings across updates", async () => {
    const req = { organization_id: ORG_A, policy_id: "hardcoded-credentials" };
    const first = await h.client.updatePolicy({ ...req, settings: { detect_api_keys: true } });
    expect(first.policy).toMatchObject({ settings: { detect_api_keys: true }, enabled: true });
    expect(first.policy!.patterns).toHaveLength(6);
    expect(first.policy!.updated_at).not.toBe("");

    const second = await h.client.updatePolicy({ ...req, enabled: false, severity: "warning" });
    expect(second.policy).toMatchObject({ enabled: false, severity: "warning", settings: { detect_api_keys: true } });

    // null resets a setting to its default.
    const third = await h.client.updatePolicy({
      ...req,
      enabled: true,
      severity: "error",
      settings: { detect_api_keys: null },
    });
    expect(third.policy).toMatchObject({ enabled: true, severity: "error", settings: { detect_api_keys: false } });
    expect(third.policy!.patterns).toHaveLength(5);
  });

  it("rejects unknown settings, wrong setting types and unknown severities", async () => {
    const req = { organization_id: ORG_A, policy_id: "hardcoded-credentials" };
    await expect(h.client.updatePolicy({ ...req, settings: { colour: "red" } })).rejects.toMatchObject({
      kind: "unprocessable",
      ...fieldError("settings.colour", "INVALID_FORMAT", /^Unknown setting 'colour'/),
    });
    await expect(h.client.updatePolicy({ ...req, settings: { detect_api_keys: "yes" } })).rejects.toMatchObject({
      kind: "unprocessable",
      ...fieldError("settings.detect_api_keys", "INVALID_FORMAT"),
    });
    await expect(h.client.updatePolicy({ ...req, severity: "fatal" })).rejects.toMatchObject({
      kind: "validation",
      ...fieldError("severity", "INVALID_ENUM"),
    });
    await expect(
      h.client.updatePolicy({ organization_id: ORG_A, policy_id: "no-such-policy", enabled: false }),
    ).rejects.toMatchObject({
      kind: "not_found",
      details: { resource_type: "policy", resource_id: "no-such-policy" },
    });
  });

  it("keeps one organization's overrides away from another", async () => {
    await h.client.updatePolicy({ organization_id: ORG_A, policy_id: "dangerous-eval", enabled: false });
    const a = await h.client.getPolicy({ organization_id: ORG_A, policy_id: "dangerous-eval" });
    const b = await h.client.getPolicy({ organization_id: ORG_B, policy_id: "dangerous-eval" });
    expect([a.policy!.enabled, b.policy!.enabled]).toEqual([false, true]);
    await h.client.updatePolicy({ organization_id: ORG_A, policy_id: "dangerous-eval", enabled: true });
  });
});

describe("custom policies", () => {
  it("creates a custom policy with defaults and announces it", async () => {
    const { policy } = await h.client.createPolicy(customPolicy("no-console-log"));
    expect(policy).toMatchObject({
      id: "no-console-log",
      category: "custom",
      enabled: true,
      builtin: false,
      settings: {},
      severity: "warning",
    });
    expect(policy!.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    const got = await h.client.getPolicy({ organization_id: ORG_A, policy_id: "no-console-log" });
    expect(got.policy).toEqual(policy);
    await eventually(() =>
      expect(changes).toContainEqual(
        expect.objectContaining({
          source: "/policy",
          subject: "no-console-log",
          data: { organization_id: ORG_A, policy_id: "no-console-log", action: "created" },
        }),
      ),
    );
  });

  it("rejects patterns RE2 cannot run, naming the pattern and RE2's reason", async () => {
    await expect(
      h.client.createPolicy(
        customPolicy("lookahead", {
          patterns: [policyV1.CustomPattern.fromPartial({ type: "regex", value: "(?=x)", message: "m" })],
        }),
      ),
    ).rejects.toMatchObject({
      kind: "unprocessable",
      ...fieldError("patterns[0].value", "INVALID_FORMAT", /invalid perl operator/),
    });
    await expect(
      h.client.createPolicy(
        customPolicy("backref", {
          patterns: [policyV1.CustomPattern.fromPartial({ type: "regex", value: String.raw`(a)\1`, message: "m" })],
        }),
      ),
    ).rejects.toMatchObject({
      kind: "unprocessable",
      ...fieldError("patterns[0].value", "INVALID_FORMAT", /invalid escape sequence/),
    });
  });

  it("rejects malformed requests as validation errors", async () => {
    await expect(h.client.createPolicy(customPolicy("Not A Slug"))).rejects.toMatchObject({
      kind: "validation",
      ...fieldError("id", "INVALID_FORMAT"),
    });
    await expect(h.client.createPolicy(customPolicy("no-patterns", { patterns: [] }))).rejects.toMatchObject({
      kind: "validation",
      ...fieldError("patterns", "MIN_SIZE_REQUIRED"),
    });
  });

  it("answers 409 for an existing custom id and for a built-in id", async () => {
    await h.client.createPolicy(customPolicy("dupe"));
    await expect(h.client.createPolicy(customPolicy("dupe"))).rejects.toMatchObject({
      kind: "conflict",
      code: "RESOURCE_ALREADY_EXISTS",
      details: { resource_type: "policy", resource_id: "dupe" },
    });
    await expect(h.client.createPolicy(customPolicy("private-keys"))).rejects.toMatchObject({
      kind: "conflict",
      details: { resource_id: "private-keys" },
    });
  });

  it("updates a custom policy and refuses settings on it", async () => {
    await h.client.createPolicy(customPolicy("updatable"));
    const { policy } = await h.client.updatePolicy({
      organization_id: ORG_A,
      policy_id: "updatable",
      enabled: false,
      severity: "error",
    });
    expect(policy).toMatchObject({ id: "updatable", enabled: false, severity: "error" });
    await expect(
      h.client.updatePolicy({ organization_id: ORG_A, policy_id: "updatable", settings: { detect_api_keys: true } }),
    ).rejects.toMatchObject({
      kind: "unprocessable",
      ...fieldError("settings.detect_api_keys", "INVALID_FORMAT", /Unknown setting/),
    });
  });

  it("deletes a custom policy, then answers not found", async () => {
    await h.client.createPolicy(customPolicy("short-lived"));
    await h.client.deletePolicy({ organization_id: ORG_A, policy_id: "short-lived" });
    await expect(h.client.getPolicy({ organization_id: ORG_A, policy_id: "short-lived" })).rejects.toMatchObject({
      kind: "not_found",
    });
    await expect(h.client.deletePolicy({ organization_id: ORG_A, policy_id: "short-lived" })).rejects.toMatchObject({
      kind: "not_found",
      details: { resource_type: "policy", resource_id: "short-lived" },
    });
    await eventually(() =>
      expect(changes.map((e) => `${e.data.policy_id}:${e.data.action}`)).toEqual(
        expect.arrayContaining(["short-lived:created", "short-lived:deleted"]),
      ),
    );
  });

  it("isolates organizations: B cannot see, change or delete A's custom policy", async () => {
    await h.client.createPolicy(customPolicy("tenant-a-only"));
    const req = { organization_id: ORG_B, policy_id: "tenant-a-only" };
    await expect(h.client.getPolicy(req)).rejects.toMatchObject({ kind: "not_found" });
    await expect(h.client.updatePolicy({ ...req, enabled: false })).rejects.toMatchObject({ kind: "not_found" });
    await expect(h.client.deletePolicy(req)).rejects.toMatchObject({ kind: "not_found" });
    const { policies } = await h.client.listPolicies({ organization_id: ORG_B });
    expect(policies.some((p) => p.id === "tenant-a-only")).toBe(false);
    // B may use the same id for its own policy.
    await h.client.createPolicy(customPolicy("tenant-a-only", { organization_id: ORG_B, severity: "error" }));
    const a = await h.client.getPolicy({ organization_id: ORG_A, policy_id: "tenant-a-only" });
    expect(a.policy!.severity).toBe("warning");
  });
});

describe("listing and resolving", () => {
  const ORG = "org_list";

  beforeAll(async () => {
    await h.client.createPolicy(
      customPolicy("zz-secret-token", { organization_id: ORG, category: "secrets", severity: "error" }),
    );
    await h.client.createPolicy(customPolicy("aa-disabled", { organization_id: ORG, enabled: false }));
    await h.client.updatePolicy({ organization_id: ORG, policy_id: "private-keys", enabled: false });
  });

  it("sorts built-ins first, then custom policies by id", async () => {
    const { policies } = await h.client.listPolicies({ organization_id: ORG });
    expect(policies.map((p) => p.id)).toEqual([...builtinIds(), "aa-disabled", "zz-secret-token"]);
  });

  it("filters on effective enabled, category and severity", async () => {
    const ids = async (filter: Partial<policyV1.ListPoliciesRequest>) =>
      (await h.client.listPolicies({ organization_id: ORG, ...filter })).policies.map((p) => p.id);
    expect(await ids({ enabled: false })).toEqual(["private-keys", "aa-disabled"]);
    expect(await ids({ category: "secrets" })).toEqual([
      ...builtinIds((p) => p.category === "secrets"),
      "zz-secret-token",
    ]);
    expect(await ids({ severity: "warning", enabled: true })).toEqual(builtinIds((p) => p.severity === "warning"));
    expect(await ids({ category: "secrets", severity: "error", enabled: true })).toEqual([
      ...builtinIds((p) => p.category === "secrets" && p.severity === "error" && p.id !== "private-keys"),
      "zz-secret-token",
    ]);
    await expect(ids({ severity: "fatal" })).rejects.toMatchObject({ kind: "validation" });
  });

  it("resolves every enabled policy when none are named", async () => {
    const { policies } = await h.client.resolvePolicies({ organization_id: ORG, policy_ids: [] });
    expect(policies.map((p) => p.id)).toEqual([...builtinIds((p) => p.id !== "private-keys"), "zz-secret-token"]);
    // A provider family's context travels with its rule, as data.
    const mailjet = policies
      .find((p) => p.id === "provider-tokens")!
      .patterns.find((r) => r.rule_id === "mailjet-api-key")!;
    expect(mailjet.context).toEqual({ keywords: ["mailjet", "mj_apikey"], distance: 0, separators: "", lines: 0 });
    const custom = policies.find((p) => p.id === "zz-secret-token")!;
    expect(custom).toEqual({
      id: "zz-secret-token",
      severity: "error",
      category: "secrets",
      suggestion: "Use the logger",
      patterns: [
        {
          type: "regex",
          value: String.raw`console\.log\(`,
          message: "console.log call",
          redact: true,
          redact_group: 0,
          rule_id: "zz-secret-token",
          keywords: [],
          min_entropy: 0,
          paths: [],
          allowlist: [],
          generic: false,
          match_allowlist: [],
          line_allowlist: [],
          file_requires: [],
          file_excludes: [],
          stopwords: [],
          checks: [],
        },
      ],
      exclude_paths: [],
      // A custom policy is written for any text file.
      file_scope: [],
    });
    // A built-in's file scope is its claimed languages, as RE2 patterns on the path.
    const cors = policies.find((p) => p.id === "permissive-cors")!;
    expect(cors.file_scope).toHaveLength(5);
    expect(cors.file_scope).toContain(String.raw`(?i)\.go$`);
  });

  it("resolves named policies, skipping disabled ones, and reports unknown ids by position", async () => {
    const { policies } = await h.client.resolvePolicies({
      organization_id: ORG,
      policy_ids: ["dangerous-eval", "private-keys", "dangerous-eval"],
    });
    expect(policies.map((p) => p.id)).toEqual(["dangerous-eval"]);
    await expect(
      h.client.resolvePolicies({ organization_id: ORG, policy_ids: ["aws-credentials", "nope", "tenant-a-only"] }),
    ).rejects.toMatchObject({
      kind: "unprocessable",
      details: {
        errors: [
          { field: "policies[1]", code: "INVALID_ENUM", message: "Unknown policy 'nope'" },
          { field: "policies[2]", code: "INVALID_ENUM", message: "Unknown policy 'tenant-a-only'" },
        ],
      },
    });
  });

  it("answers unchanged, without patterns, while the caller's version is current, and a new version after any change", async () => {
    const first = await h.client.resolvePolicies({ organization_id: ORG, policy_ids: [] });
    expect(first.unchanged).toBe(false);
    expect(first.policies.length).toBeGreaterThan(0);

    const again = await h.client.resolvePolicies({
      organization_id: ORG,
      policy_ids: [],
      known_version: first.version,
    });
    expect(again).toEqual({ policies: [], version: first.version, unchanged: true });
    // A different request shape or an outdated version gets the policies.
    const subset = await h.client.resolvePolicies({
      organization_id: ORG,
      policy_ids: ["dangerous-eval"],
      known_version: first.version,
    });
    expect(subset.unchanged).toBe(false);
    expect(subset.policies.map((p) => p.id)).toEqual(["dangerous-eval"]);

    await h.client.updatePolicy({ organization_id: ORG, policy_id: "dangerous-eval", severity: "error" });
    const changed = await h.client.resolvePolicies({
      organization_id: ORG,
      policy_ids: [],
      known_version: first.version,
    });
    expect(changed.unchanged).toBe(false);
    expect(changed.version).not.toBe(first.version);
    expect(changed.policies.find((p) => p.id === "dangerous-eval")!.severity).toBe("error");
    await h.client.updatePolicy({ organization_id: ORG, policy_id: "dangerous-eval", severity: "warning" });
    // Back to the same inputs: the same version as before.
    expect((await h.client.resolvePolicies({ organization_id: ORG, policy_ids: [] })).version).toBe(first.version);
  });

  it("includes setting-gated patterns only while the setting is on", async () => {
    const patternsOf = async () =>
      (
        await h.client.resolvePolicies({ organization_id: ORG, policy_ids: ["hardcoded-credentials"] })
      ).policies[0]!.patterns.map((p) => p.message);
    const always = [
      "Hardcoded password or secret",
      "Password compared with a hardcoded value",
      "Password compared with a hardcoded value",
      "Password passed to curl with -u/--user",
      "Credential in the Authorization or API-key header of a curl command",
    ];
    expect(await patternsOf()).toEqual(always);
    await h.client.updatePolicy({
      organization_id: ORG,
      policy_id: "hardcoded-credentials",
      settings: { detect_api_keys: true },
    });
    expect(await patternsOf()).toEqual([...always, "Hardcoded API key or access token"]);
  });
});
